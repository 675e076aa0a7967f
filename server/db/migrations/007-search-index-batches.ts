import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { up as addSearchIndexes } from './005-search-index.js';

/**
 * Search indexes now take new and changed rows through a pending table, flushed in batches:
 * indexes made by the first version of 005 are rebuilt in the new form (up-to-date ones are kept).
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await addSearchIndexes(db, engine);
}
