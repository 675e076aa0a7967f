import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { REVISION_ROW_INDEX, REVISIONS_TABLE, TYPE_CHANGES_TABLE } from '../repositories/revision-repository.js';

/**
 * Row revisions and the content-type change log (issue 15), the same on both engines but for the
 * id: SQLite's `integer primary key` (the rowid: the largest so far plus one, so ids follow the
 * order revisions were written; no AUTOINCREMENT, whose sqlite_sequence table nothing here needs),
 * PostgreSQL's identity column. Times are server timestamps (`YYYY-MM-DD
 * HH:MM:SS.ffffff` UTC), which sort and compare as text on either engine.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  for (const table of [REVISIONS_TABLE, TYPE_CHANGES_TABLE]) {
    let create = db.schema
      .createTable(table)
      .addColumn('id', engine.kind === 'postgres' ? 'bigint' : 'integer', (column) =>
        engine.kind === 'postgres' ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey(),
      );
    create =
      table === REVISIONS_TABLE
        ? create
            .addColumn('table_name', 'text', (column) => column.notNull())
            .addColumn('row_id', 'text', (column) => column.notNull())
            // create, update, delete or restore.
            .addColumn('action', 'text', (column) => column.notNull())
            // The stored row after the change (before it, for a delete), as JSON.
            .addColumn('snapshot', 'text', (column) => column.notNull())
            // The names of the fields the change set or changed, as a JSON array.
            .addColumn('changed', 'text', (column) => column.notNull())
        : create
            .addColumn('type_slug', 'text', (column) => column.notNull())
            // create, update or delete.
            .addColumn('action', 'text', (column) => column.notNull())
            // What changed, as JSON (see ContentTypeService).
            .addColumn('detail', 'text', (column) => column.notNull());
    await create
      .addColumn('changed_by', 'text')
      .addColumn('changed_at', 'text', (column) => column.notNull())
      .execute();
  }
  await db.schema.createIndex(REVISION_ROW_INDEX).on(REVISIONS_TABLE).columns(['table_name', 'row_id', 'id']).execute();
}
