import type { Kysely } from 'kysely';
import { searchColumnsOf } from '../../../common/title-rules.js';
import type { DatabaseEngine } from '../engine.js';
import { forEachContentTable } from './content-table-steps.js';

/**
 * The step several migrations share: gives every content table the search objects today's engine
 * makes for its search columns (`ensure` leaves those already right as they are).
 */
export async function ensureSearchIndexes(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await forEachContentTable(db, engine, (table, columns) =>
    engine.searchIndex.ensure(db, table, searchColumnsOf(columns)),
  );
}
