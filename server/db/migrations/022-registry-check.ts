import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';

/**
 * Where servers share the database (PostgreSQL), the function a row write's transaction calls to
 * check that the content types it ran on are still current (postgres-registry-check.ts). Nothing on
 * SQLite, where one process writes the file.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await engine.registryCheck?.create(db);
}
