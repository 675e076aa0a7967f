import { v7 as uuidv7 } from 'uuid';

/** Longest id accepted from a client. */
const MAX_ID_LENGTH = 128;

/** A new row id: a UUIDv7, so ids sort in creation order (the default list order). */
export function newRowId(): string {
  return uuidv7();
}

/** Whether a client-chosen id is acceptable: URL-safe characters only, so it works as a path segment. */
export function isValidRowId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_ID_LENGTH && /^[A-Za-z0-9._~-]+$/.test(id) && id !== '.' && id !== '..';
}
