import { type Kysely, sql } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';

const CHANGES_TABLE = 'quire_changes';
const PURGED_TABLE = 'quire_changes_purged';
const HOOK_OUTBOX_TABLE = 'quire_hook_outbox';

/**
 * The change feed: one row a committed change (a row written, a content type changed), recorded in
 * the write's own transaction and removed only by the retention purge. Changes are read in the
 * order of (`tx`, `id`): the engine step numbers `id` and gives `tx` (the writing transaction's
 * number where servers commit out of order, 0 where one writer commits in id order), and reads
 * hand out only the changes no transaction still running can precede. `quire_changes_purged` holds
 * one row, the newest position the purge has removed, so a cursor before it is known as expired.
 * Build hooks' waiting events carry their change's cursor.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const { numberedId, transactionColumn } = migrations['030-change-feed'];
  await transactionColumn(numberedId(db.schema.createTable(CHANGES_TABLE)))
    // A server timestamp (UTC `YYYY-MM-DD HH:MM:SS.ffffff`): the purge goes by it.
    .addColumn('at', 'text', (column) => column.notNull())
    .addColumn('table_name', 'text', (column) => column.notNull())
    .addColumn('row_id', 'text', (column) => column.notNull())
    // create, update, delete, restore, type_change or media.
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('changed_by', 'text')
    // A JSON array of locales, where content is localized; null otherwise.
    .addColumn('locales', 'text')
    .execute();
  await db.schema.createIndex('quire_changes:order').on(CHANGES_TABLE).columns(['tx', 'id']).execute();
  await db.schema.createIndex('quire_changes:at').on(CHANGES_TABLE).columns(['at']).execute();
  await db.schema
    .createTable(PURGED_TABLE)
    .addColumn('tx', 'bigint', (column) => column.notNull())
    .addColumn('id', 'bigint', (column) => column.notNull())
    .execute();
  await sql`insert into ${sql.table(PURGED_TABLE)} (tx, id) values (0, 0)`.execute(db);
  await db.schema.alterTable(HOOK_OUTBOX_TABLE).addColumn('cursor', 'text').execute();
}
