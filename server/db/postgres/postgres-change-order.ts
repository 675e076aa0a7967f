import { type Kysely, sql } from 'kysely';
import type { ChangeOrder } from '../engine.js';

/**
 * Transaction ids as pg_stat_activity shows them wrap at 2^32; the feed's `tx` does not. A running
 * id is widened by how far it is behind xmax; one that is not behind it (taken after the snapshot)
 * cannot lower the bound.
 */
const XID_RANGE = 4294967296;

/**
 * The change feed's order on PostgreSQL, where several servers' transactions commit out of order.
 *
 * A change records the number of the transaction that wrote it (`tx`, `pg_current_xact_id()`, the
 * default of the column) beside its `id` from a sequence. Ids alone would leave gaps that fill
 * later: a transaction that took id 5 may commit after one that took id 6 was read, and a reader
 * past 6 would never see 5. So the feed is ordered by (`tx`, `id`) and a read hands out only the
 * changes whose `tx` is below a bound B that no transaction still to commit a change can be under:
 *
 * - B is the oldest transaction id held by a session of this database (pg_stat_activity's
 *   `backend_xid`, widened to 64 bits against the snapshot's xmax), or the snapshot's xmax when
 *   none holds one. A session connects to one database, so only this database's writers hold the
 *   feed back; the cluster-wide xmin would make every database wait for any other's transactions.
 * - B is read in a statement of its own, before the statement reading the changes. A transaction
 *   numbered below B had ended when B was read (it would hold an id in pg_stat_activity
 *   otherwise), so the later snapshot of the changes sees all it committed; one that had no number
 *   yet gets one at or above xmax, hence at or above B. So the changes below B are final.
 * - Ids only grow, so a later read's B is never below an earlier one's: a later read only adds
 *   changes above every position an earlier read handed out. The feed has no gaps and no
 *   duplicates on every server of the database, across restarts.
 *
 * What it costs: a change is handed out once every transaction of this database that took its
 * number before it has ended, so a long transaction here (a session left open in a transaction)
 * holds the feed back until it ends; nothing is lost meanwhile.
 */
export const postgresChangeOrder: ChangeOrder = {
  async settledBelow(db: Kysely<unknown>): Promise<number> {
    const { rows } = await sql<{ bound: string | number }>`
      select coalesce(min(case when behind < ${XID_RANGE / 2} then s.xmax - behind else s.xmax end), s.xmax) as bound
      from (select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as xmax) s
      left join lateral (
        select (s.xmax % ${XID_RANGE} - a.backend_xid::text::bigint + ${XID_RANGE}) % ${XID_RANGE} as behind
        from pg_stat_activity a
        where a.datname = current_database() and a.backend_xid is not null
      ) running on true
      group by s.xmax`.execute(db);
    return Number(rows[0].bound);
  },
};
