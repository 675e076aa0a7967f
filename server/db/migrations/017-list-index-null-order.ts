import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { up as rebuildListIndexes } from './011-list-indexes.js';

/**
 * Gives PostgreSQL's content tables the list indexes as planned now (content-index-plan.ts): lists
 * put nulls first ascending, as on SQLite, and an index must say `nulls first` to serve them; and
 * `text` columns get indexes of their first 200 characters. Indexes already as planned are kept, so
 * on SQLite this changes nothing.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await rebuildListIndexes(db, engine);
}
