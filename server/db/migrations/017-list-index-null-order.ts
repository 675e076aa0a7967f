import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { up as rebuildListIndexes } from './011-list-indexes.js';

/**
 * Rebuilds the list indexes whose null order changed: on PostgreSQL, lists now put nulls first
 * ascending, as on SQLite, and an index must say `nulls first` to serve them (content-index-plan.ts).
 * Indexes already as planned are kept, so on SQLite this changes nothing.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await rebuildListIndexes(db, engine);
}
