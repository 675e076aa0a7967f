import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';

/**
 * The change numbers of content tables where the engine keeps them (PostgreSQL), which let a server
 * keep exact counts in memory while other servers write to the same database (issue 13). SQLite
 * has one process per file, whose read cache hears of every write itself: nothing is made there.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await engine.rowChanges?.create(db);
}
