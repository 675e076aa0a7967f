import { v7 as uuidv7 } from 'uuid';

/** Longest id accepted from a client. */
const MAX_ID_LENGTH = 128;

/** A new row id: a UUIDv7, so ids sort in creation order (the default list order). */
export function newRowId(): string {
  return uuidv7();
}

/**
 * Path segments a row id cannot be: `.` and `..` (URLs resolve them away) and `trash`, since
 * `/cms/:type/trash` is the type's trash, so a row with that id could never be read.
 */
const RESERVED_IDS: ReadonlySet<string> = new Set(['.', '..', 'trash']);

/** Whether a client-chosen id (or an imported one) is acceptable: URL-safe, and readable at its path. */
export function isValidRowId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_ID_LENGTH && /^[A-Za-z0-9._~-]+$/.test(id) && !RESERVED_IDS.has(id);
}
