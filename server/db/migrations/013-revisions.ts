import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';

const REVISIONS_TABLE = 'quire_revisions';
const TYPE_CHANGES_TABLE = 'quire_type_changes';
const REVISION_ROW_INDEX = 'quire_revisions:row';

/**
 * Row revisions and the content-type change log, the same on both engines but for the numbered id
 * (the engine step: ids follow the order revisions were written). Times are server timestamps
 * (`YYYY-MM-DD HH:MM:SS.ffffff` UTC), which sort and compare as text on either engine.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const { numberedId } = migrations['013-revisions'];
  for (const table of [REVISIONS_TABLE, TYPE_CHANGES_TABLE]) {
    let create = numberedId(db.schema.createTable(table));
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
