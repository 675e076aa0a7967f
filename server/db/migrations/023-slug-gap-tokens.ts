import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';

/**
 * Where servers share the database (PostgreSQL), a count beside each table's change number of the
 * writes that may free a slug (updates and deletes), which lets creates of one title trust what
 * they learnt of its taken slugs (postgres-row-changes.ts `createGapTokens`). Nothing on SQLite,
 * whose read cache hears of every write itself.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await engine.rowChanges?.createGapTokens(db);
}
