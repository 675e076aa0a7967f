import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';

const SCHEDULES_TABLE = 'quire_schedules';
const SCHEDULE_DUE_INDEX = 'quire_schedules:at';
const HOOKS_TABLE = 'quire_hooks';
const HOOK_OUTBOX_TABLE = 'quire_hook_outbox';
const HOOK_DELIVERIES_TABLE = 'quire_hook_deliveries';
const HOOK_OUTBOX_INDEX = 'quire_hook_outbox:hook';
const HOOK_DELIVERY_INDEX = 'quire_hook_deliveries:hook';

/**
 * Scheduled status changes and build hooks, the same on both engines but for the numbered ids (the
 * engine step). Times are server timestamps (`YYYY-MM-DD HH:MM:SS[.ffffff]` UTC), which sort and
 * compare as text on either engine.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const { numberedId } = migrations['015-schedules-and-hooks'];
  const numbered = (name: string) => numberedId(db.schema.createTable(name));
  // One pending change per row: scheduling again replaces it; applying or cancelling removes it.
  await db.schema
    .createTable(SCHEDULES_TABLE)
    .addColumn('table_name', 'text', (column) => column.notNull())
    .addColumn('row_id', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('at', 'text', (column) => column.notNull())
    .addColumn('scheduled_by', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('quire_schedules:pk', ['table_name', 'row_id'])
    .execute();
  await db.schema.createIndex(SCHEDULE_DUE_INDEX).on(SCHEDULES_TABLE).column('at').execute();
  await db.schema
    .createTable(HOOKS_TABLE)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('url', 'text', (column) => column.notNull())
    // JSON arrays, or null for every content type / every action.
    .addColumn('content_types', 'text')
    .addColumn('actions', 'text')
    // Kept to sign deliveries (HMAC needs it as it is); never sent back after creation.
    .addColumn('secret', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text')
    // Delivery state: failed attempts in a row, when the next may start, and the server delivering now.
    .addColumn('failures', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('retry_at', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('lease_owner', 'text')
    .execute();
  // Events waiting for delivery, one per hook that wants them, written in the change's transaction.
  await numbered(HOOK_OUTBOX_TABLE)
    .addColumn('hook_id', 'text', (column) => column.notNull())
    .addColumn('table_name', 'text', (column) => column.notNull())
    .addColumn('row_id', 'text', (column) => column.notNull())
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('at', 'text', (column) => column.notNull())
    .addColumn('changed_by', 'text')
    // When the event may go out (its debounce ends).
    .addColumn('due_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex(HOOK_OUTBOX_INDEX).on(HOOK_OUTBOX_TABLE).columns(['hook_id', 'id']).execute();
  await numbered(HOOK_DELIVERIES_TABLE)
    .addColumn('hook_id', 'text', (column) => column.notNull())
    .addColumn('at', 'text', (column) => column.notNull())
    // delivered, failed (retried later), gave_up (a day of failures), or test_delivered / test_failed.
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('response_code', 'integer')
    .addColumn('attempt', 'integer', (column) => column.notNull())
    .addColumn('events', 'integer', (column) => column.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex(HOOK_DELIVERY_INDEX).on(HOOK_DELIVERIES_TABLE).columns(['hook_id', 'id']).execute();
}
