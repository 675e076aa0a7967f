import type { Kysely } from 'kysely';
import { forEachContentTable, searchColumnsOf } from './content-table-steps.js';
import type { ContentTableEngine } from './migration-engine.js';

/**
 * The step several migrations share: gives every content table the search objects the engine's
 * step makes for its search columns (`ensureSearchIndex` leaves those already right as they are).
 */
export async function ensureSearchIndexes(db: Kysely<unknown>, engine: ContentTableEngine): Promise<void> {
  await forEachContentTable(db, engine, (table, columns) =>
    engine.ensureSearchIndex(db, table, searchColumnsOf(columns)),
  );
}
