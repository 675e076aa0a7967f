import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';
import { ensureSearchIndexes } from './search-index-step.js';

/** Adds the search index (and what keeps it in step) to content tables created before it existed. */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await ensureSearchIndexes(db, migrations['005-search-index']);
}
