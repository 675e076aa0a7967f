import type { Kysely } from 'kysely';

/**
 * Site-wide settings, one row a name: choices made once for the whole site (the first run's starter
 * set among them), with who made them and when.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quire_settings')
    .addColumn('name', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('changed_at', 'text', (column) => column.notNull())
    .addColumn('changed_by', 'text')
    .execute();
}
