import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import {
  HOOK_DELIVERIES_TABLE,
  HOOK_DELIVERY_INDEX,
  HOOK_OUTBOX_INDEX,
  HOOK_OUTBOX_TABLE,
  HOOKS_TABLE,
} from '../repositories/hook-repository.js';
import { SCHEDULE_DUE_INDEX, SCHEDULES_TABLE } from '../repositories/schedule-repository.js';

/**
 * Scheduled status changes and build hooks (issue 15), the same on both engines but for the
 * numbered ids (SQLite's autoincrement, PostgreSQL's identity). Times are server timestamps
 * (`YYYY-MM-DD HH:MM:SS[.ffffff]` UTC), which sort and compare as text on either engine.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const numbered = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', engine.kind === 'postgres' ? 'bigint' : 'integer', (column) =>
        engine.kind === 'postgres'
          ? column.primaryKey().generatedByDefaultAsIdentity()
          : column.primaryKey().autoIncrement(),
      );
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
