import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';

/**
 * Where the engine keeps change numbers (PostgreSQL), the function that reads one, which gets and
 * lists read in their own statement: a PL/pgSQL function keeps its plans for the connection. The
 * table of migration 016 stays as it is. Nothing on SQLite.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await migrations['019-change-number-function'].up(db);
}
