import type { Kysely } from 'kysely';

/**
 * A counter every content-type change increments in its own transaction, so a server sharing the
 * database with others (PostgreSQL) can tell with one small read whether its registry is stale.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quire_registry_version')
    .addColumn('id', 'integer', (column) => column.primaryKey().notNull())
    .addColumn('version', 'integer', (column) => column.notNull())
    .execute();
  await (db as Kysely<{ quire_registry_version: { id: number; version: number } }>)
    .insertInto('quire_registry_version')
    .values({ id: 1, version: 0 })
    .execute();
}
