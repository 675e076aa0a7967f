import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';

/**
 * The change numbers of content tables where servers share the database (PostgreSQL), which let a
 * server keep exact counts in memory while other servers write to the same database. SQLite has
 * one process per file, whose read cache hears of every write itself: its step makes nothing.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await migrations['016-row-changes'].up(db);
}
