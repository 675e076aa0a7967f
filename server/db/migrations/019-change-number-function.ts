import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';

/**
 * Where the engine keeps change numbers (PostgreSQL), the function that reads one, which gets and
 * lists now read in their own statement (postgres-row-changes.ts says why a function). `create`
 * leaves the table of migration 016 as it is. Nothing on SQLite.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await engine.rowChanges?.create(db);
}
