import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';
import { ensureSearchIndexes } from './search-index-step.js';

/**
 * Brings every content table's search objects up to date. On SQLite the delete trigger then notes
 * deleted rows in the pending table, which the in-memory search index reads.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await ensureSearchIndexes(db, migrations['014-search-deletes-noted']);
}
