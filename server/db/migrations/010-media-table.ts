import { type Kysely, sql } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { MEDIA_TABLE } from '../postgres/postgres-media-repository.js';

/**
 * On PostgreSQL, uploads live in the database (`quire_media`: one row per file, its bytes and
 * what they are), so every server sharing it serves every upload. SQLite keeps its files in
 * `media/` beside the database file, so there the migration makes nothing.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  if (engine.kind !== 'postgres') return;
  await db.schema
    .createTable(MEDIA_TABLE)
    .addColumn('path', 'text', (column) => column.primaryKey())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('size', 'integer', (column) => column.notNull())
    .addColumn('bytes', 'bytea', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
}
