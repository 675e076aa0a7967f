import type { Kysely } from 'kysely';

/** The registry of content types: one row per type, its columns as JSON. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quire_content_types')
    .addColumn('id', 'text', (col) => col.primaryKey().notNull())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('table_name', 'text', (col) => col.notNull().unique())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('custom', 'integer', (col) => col.notNull())
    .addColumn('columns', 'text', (col) => col.notNull())
    .addColumn('preview_path', 'text')
    .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}
