import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';
import { ensureSearchIndexes } from './search-index-step.js';

/**
 * Search indexes take new and changed rows through a pending table, flushed in batches: indexes
 * made by the first version of 005 are rebuilt in the new form (up-to-date ones are kept).
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await ensureSearchIndexes(db, migrations['007-search-index-batches']);
}
