import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';

/**
 * Where servers share the database (PostgreSQL), a count beside each table's change number of the
 * writes that may free a slug (updates and deletes), which lets creates of one title trust what
 * they learnt of its taken slugs. Nothing on SQLite, whose read cache hears of every write itself.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await migrations['023-slug-gap-tokens'].up(db);
}
