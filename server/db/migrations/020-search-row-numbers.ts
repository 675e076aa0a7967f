import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';
import { ensureSearchIndexes } from './search-index-step.js';

/**
 * On PostgreSQL, every search table is made again with its row number and writing transaction
 * (`quire:n`, `quire:x`) and the trigger noting deleted rows, which the in-memory search index
 * reads to stay in step with every server's writes. On SQLite the step finds the search objects
 * as they should be and changes nothing.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await ensureSearchIndexes(db, migrations['020-search-row-numbers']);
}
