import type { StoredRow } from './content-repository.js';

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
