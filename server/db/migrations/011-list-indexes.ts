import type { Kysely } from 'kysely';
import { rebuildContentIndexes } from './content-index-steps.js';
import { forEachContentTable } from './content-table-steps.js';
import type { MigrationEngine } from './migration-engine.js';

/**
 * Gives every content table the indexes lists need in any order with any select or relation filter
 * (content-index-steps.ts): an index per orderable column, one per filter column and order, and a
 * narrow one per filter column for exact counts. Indexes already as planned are kept, so a table
 * only pays for the ones it lacked.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const engine = migrations['011-list-indexes'];
  await forEachContentTable(db, engine, (table, columns) => rebuildContentIndexes(db, engine, table, columns));
}
