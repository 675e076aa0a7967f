import { sql } from 'kysely';
import type { ChangeOrder } from '../engine.js';

/**
 * The change feed's order on PostgreSQL, where several servers' transactions commit out of order.
 *
 * A change records the number of the transaction that wrote it (`tx`, `pg_current_xact_id()`, the
 * default of the column) beside its `id` from a sequence. Ids alone would leave gaps that fill
 * later: a transaction that took id 5 may commit after one that took id 6 was read, and a reader
 * past 6 would never see 5. So the feed is ordered by (`tx`, `id`) and a read hands out only the
 * changes whose `tx` is below its snapshot's xmin (`pg_snapshot_xmin(pg_current_snapshot())`):
 * every transaction numbered below xmin has ended, committed or rolled back, so the changes below
 * it are final, and any transaction that has yet to commit a change has a number at or above it
 * (a transaction gets its number when it first writes, and numbers only grow). Xmin never goes
 * back, so a later read only adds changes above every position an earlier read handed out: the
 * feed has no gaps and no duplicates on every server of the database, across restarts.
 *
 * What it costs: a change is handed out once every transaction that began writing before it has
 * ended, so one long transaction (a backup, a session left open in a transaction) holds the feed
 * back until it ends; nothing is lost meanwhile.
 */
export const postgresChangeOrder: ChangeOrder = {
  settledBelow: () => sql`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`,
};
