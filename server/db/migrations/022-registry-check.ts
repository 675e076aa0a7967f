import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';

/**
 * Where servers share the database (PostgreSQL), the function a row write's transaction calls to
 * check that the content types it ran on are still current. Nothing on SQLite, where one process
 * writes the file.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await migrations['022-registry-check'].up(db);
}
