import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';

/**
 * Where servers share the database (PostgreSQL), uploads live in it (`quire_media`: one row per
 * file, its bytes and what they are), so every server serves every upload. SQLite keeps its files
 * in `media/` beside the database file: its step makes nothing.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  await migrations['010-media-table'].up(db);
}
