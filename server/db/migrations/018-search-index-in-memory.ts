import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';
import { ensureSearchIndexes } from './search-index-step.js';

/**
 * Brings every content table's search objects up to date. On SQLite this drops the FTS5 index
 * (searches are answered by the in-memory index, or the plain scan) and re-creates the triggers so
 * they only note changed rows in the pending table. On PostgreSQL the step finds its search table
 * as it should be and changes nothing.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await ensureSearchIndexes(db, migrations['018-search-index-in-memory']);
}
