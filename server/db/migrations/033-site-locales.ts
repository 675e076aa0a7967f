import type { Kysely } from 'kysely';

const LOCALES_TABLE = 'quire_locales';

/**
 * The site's languages: one row holding the locales document as JSON text (null until one is set:
 * the site then has its one default locale), with a version every change increments in its own
 * transaction, so servers sharing the database notice another's change with one small read, and
 * who made the change and when. The document is replaced whole: its chains name each other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable(LOCALES_TABLE)
    .addColumn('id', 'integer', (column) => column.primaryKey().notNull())
    .addColumn('document', 'text')
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('changed_at', 'text')
    .addColumn('changed_by', 'text')
    .execute();
  await (db as Kysely<{ quire_locales: { id: number; version: number } }>)
    .insertInto(LOCALES_TABLE)
    .values({ id: 1, version: 0 })
    .execute();
}
