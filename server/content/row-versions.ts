import { hash } from 'node:crypto';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { AppError } from '../errors/app-error.js';

/**
 * A stored row's version: a hash of every stored column, names sorted, so the same row reads as the
 * same version whichever statement read it (a read, a write's locking read). Any write of the row
 * changes it, since every write sets `updated_at`; writes to other rows never do.
 */
export function rowVersion(stored: StoredRow): string {
  const names = Object.keys(stored).sort();
  const values = names.map((name) => {
    const value = stored[name];
    // bigint has no JSON; a driver may give one for a large integer column.
    return typeof value === 'bigint' ? value.toString() : value;
  });
  return hash('sha1', JSON.stringify([names, values]), 'hex');
}

/**
 * What a conditional write (`If-Match`) checks and learns inside its transaction: the version the
 * request was answered for, and, for an update, the version it writes (for the answer's ETag).
 */
export interface WriteCheck {
  /** The version the row must still have; null: only that it exists (`If-Match: *`). */
  expected: string | null;
  /** Hears the version of the row as the write leaves it (updates only). */
  written?: (version: string) => void;
}

/** Refuses the write when the row as stored before it is not the expected version. */
export function checkBeforeWrite(check: WriteCheck | undefined, current: StoredRow): void {
  if (!check || check.expected === null || rowVersion(current) === check.expected) return;
  throw staleWrite();
}

/** The error of a write whose `If-Match` no longer names what is stored (the route adds what is). */
export function staleWrite(): AppError {
  return new AppError('stale_write', 'Someone else changed this since it was read; nothing was written');
}
