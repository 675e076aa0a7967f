import type { Kysely } from 'kysely';

const ASSETS_TABLE = 'quire_assets';

/**
 * The media library: one asset a stored upload, with what describes it (alt text, caption, credit,
 * a focal point, a folder) and what was read from the file (its original name, media type, size,
 * pixel size, sha256 of its bytes). `path` is the `/media/...` path rows hold as their value, so a
 * row never names an asset by id. Uploads kept before this migration get their assets when a
 * server starts (the files are not the migration's to read: beside SQLite they are outside the
 * database). Timestamps are server UTC text, as rows have them; the same SQL on every engine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable(ASSETS_TABLE)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('path', 'text', (column) => column.notNull().unique())
    .addColumn('file_name', 'text', (column) => column.notNull())
    .addColumn('media_type', 'text', (column) => column.notNull())
    .addColumn('size', 'integer', (column) => column.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('content_hash', 'text', (column) => column.notNull())
    .addColumn('alt', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('caption', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('credit', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('focal_x', 'double precision', (column) => column.notNull().defaultTo(0.5))
    .addColumn('focal_y', 'double precision', (column) => column.notNull().defaultTo(0.5))
    .addColumn('folder', 'text')
    .addColumn('uploaded_by', 'text')
    .addColumn('uploaded_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('quire_assets:hash').on(ASSETS_TABLE).column('content_hash').execute();
  await db.schema.createIndex('quire_assets:uploaded').on(ASSETS_TABLE).columns(['uploaded_at', 'id']).execute();
  await db.schema.createIndex('quire_assets:folder').on(ASSETS_TABLE).column('folder').execute();
}
