import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { rebuildContentIndexes } from '../repositories/content-schema-repository.js';
import { forEachContentTable } from './content-table-steps.js';

/**
 * Gives every content table the indexes lists need in any order with any select or relation filter
 * (see `content-index-plan.ts`): an index per orderable column, one per filter column and order,
 * and a narrow one per filter column for exact counts. Indexes already as planned are kept, so a
 * table only pays for the ones it lacked (at 1M rows about 1-2 s each).
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await forEachContentTable(db, engine, (table, columns) => rebuildContentIndexes(db, engine, table, columns));
}
