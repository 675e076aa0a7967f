import type { StoredRow } from './repositories/content-repository.js';

/**
 * What a bulk import writes through, on either engine (`sqlite-bulk-import.ts`,
 * `postgres-bulk-import.ts`): lookups that see the rows already written by the import, and the
 * insert. Synchronous, so validating a row never waits on the database.
 */
export interface BulkWriter {
  rowExists(id: string): boolean;
  slugTaken(column: string, slug: string): boolean;
  /** Values of `column` that start with `prefix`. */
  valuesStartingWith(column: string, prefix: string): Set<string>;
  insert(row: StoredRow): void;
}

/** What a bulk import measured of its own work, for its report. */
export interface BulkImportTimings {
  /** Time spent building the indexes dropped for the load (into an empty table), in ms; 0 when none were. */
  indexMs: number;
}
