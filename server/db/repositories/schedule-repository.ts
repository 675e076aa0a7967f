import { type AliasableExpression, type Kysely, sql } from 'kysely';
import { sendLater } from '../queries/later-statements.js';
import type { QuireDatabase } from '../schema.js';
import type { StatementRunner } from '../statement-runner.js';
import { ACCOUNTS_TABLE } from './account-repository.js';

/** Pending status changes, at most one per row. */
export const SCHEDULES_TABLE = 'quire_schedules';
/** Due schedules, soonest first. */
export const SCHEDULE_DUE_INDEX = 'quire_schedules:at';

/** A stored schedule. */
export interface ScheduleRow {
  table_name: string;
  row_id: string;
  /** The status the row is given. */
  status: string;
  /** When, UTC `YYYY-MM-DD HH:MM:SS`. */
  at: string;
  scheduled_by: string | null;
  created_at: string;
}

interface ScheduleTables {
  quire_schedules: ScheduleRow;
}

/** Most ids looked up in one statement (SQLite allows 32766 parameters; pages are at most 1000). */
const IDS_PER_STATEMENT = 500;

/** SQLite's statement for `count` rows' schedules, by count (the runner prepares each text once). */
const FOR_ROWS_SQL = new Map<number, string>();

function forRowsSql(count: number): string {
  let text = FOR_ROWS_SQL.get(count);
  if (!text) {
    const marks = Array.from({ length: count }, () => '?').join(', ');
    text = `select * from "${SCHEDULES_TABLE}" where "table_name" = ? and "row_id" in (${marks})`;
    FOR_ROWS_SQL.set(count, text);
  }
  return text;
}

/**
 * A row's pending change as a JSON object (null when it has none), with `held` true while its
 * scheduler's account is disabled, by a subquery on a row of `table`: read in a page's own
 * statement where schedules are not kept in memory (PostgreSQL, whose `jsonb` this is; see
 * read-marks.ts `RowExtra`), so a page with schedules needs no second statement for the holds.
 */
export function scheduleOfRow(table: string): AliasableExpression<HeldScheduleRow | null> {
  return sql<HeldScheduleRow | null>`(select to_jsonb(s) || jsonb_build_object('held', exists(
      select 1 from ${sql.id(ACCOUNTS_TABLE)} a where a.name = s.scheduled_by and a.disabled <> 0))
    from ${sql.id(SCHEDULES_TABLE)} s
    where s.table_name = ${table} and s.row_id = ${sql.id(table, 'id')})`;
}

/** A pending change read with whether its scheduler's account is disabled (scheduleOfRow). */
export interface HeldScheduleRow extends ScheduleRow {
  held: boolean;
}

/**
 * All SQL of scheduled status changes, the same on both engines. Times compare as text. Reads of a
 * page's schedules go through the statement runner when there is one (the hot read path).
 */
export class ScheduleRepository {
  private readonly db: Kysely<ScheduleTables>;

  constructor(
    db: Kysely<QuireDatabase> | Kysely<unknown>,
    private readonly runner?: StatementRunner,
  ) {
    this.db = db as unknown as Kysely<ScheduleTables>;
  }

  /** Sets a row's pending change, replacing one it had. */
  async put(schedule: ScheduleRow): Promise<void> {
    await this.db
      .insertInto(SCHEDULES_TABLE)
      .values(schedule)
      .onConflict((conflict) =>
        conflict.columns(['table_name', 'row_id']).doUpdateSet({
          status: schedule.status,
          at: schedule.at,
          scheduled_by: schedule.scheduled_by,
          created_at: schedule.created_at,
        }),
      )
      .execute();
  }

  /** Removes the pending change of a row being deleted, if any (in the delete's transaction, sent with its COMMIT). */
  async removeWithRow(table: string, rowId: string): Promise<void> {
    await this.db.executeQuery(sendLater(this.removal(table, rowId).compile()));
  }

  /** Removes a row's pending change; whether there was one. */
  async remove(table: string, rowId: string): Promise<boolean> {
    const result = await this.removal(table, rowId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The statement removing a row's pending change. */
  private removal(table: string, rowId: string) {
    return this.db.deleteFrom(SCHEDULES_TABLE).where('table_name', '=', table).where('row_id', '=', rowId);
  }

  /**
   * Takes exactly this pending change (inside the write that applies it): true when this
   * transaction removed it. On PostgreSQL a second server applying the same change waits for the
   * first one's commit here (the row is locked), then finds nothing, and its write is undone.
   */
  async claim(schedule: Pick<ScheduleRow, 'table_name' | 'row_id' | 'status' | 'at'>): Promise<boolean> {
    const result = await this.db
      .deleteFrom(SCHEDULES_TABLE)
      .where('table_name', '=', schedule.table_name)
      .where('row_id', '=', schedule.row_id)
      .where('status', '=', schedule.status)
      .where('at', '=', schedule.at)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** A row's pending change, or undefined. */
  async find(table: string, rowId: string): Promise<ScheduleRow | undefined> {
    return this.db
      .selectFrom(SCHEDULES_TABLE)
      .selectAll()
      .where('table_name', '=', table)
      .where('row_id', '=', rowId)
      .executeTakeFirst();
  }

  /**
   * The pending changes of these rows of `table`. With a statement runner (SQLite's hot read path)
   * the statement's text is built once per number of ids, so it is prepared once.
   */
  async forRows(table: string, rowIds: readonly string[]): Promise<ScheduleRow[]> {
    const found: ScheduleRow[] = [];
    for (let start = 0; start < rowIds.length; start += IDS_PER_STATEMENT) {
      const ids = rowIds.slice(start, start + IDS_PER_STATEMENT);
      if (this.runner) {
        const rows = await this.runner.all(forRowsSql(ids.length), [table, ...ids]);
        found.push(...(rows as unknown as ScheduleRow[]));
      } else {
        found.push(
          ...(await this.db
            .selectFrom(SCHEDULES_TABLE)
            .selectAll()
            .where('table_name', '=', table)
            .where('row_id', 'in', ids)
            .execute()),
        );
      }
    }
    return found;
  }

  /** Every pending change (they are few: one per row at most, and only until it is due). */
  async all(): Promise<ScheduleRow[]> {
    if (this.runner)
      return (await this.runner.all(`select * from "${SCHEDULES_TABLE}"`, [])) as unknown as ScheduleRow[];
    return this.db.selectFrom(SCHEDULES_TABLE).selectAll().execute();
  }

  /** Changes due by `now` (a server timestamp), soonest first; those held (see `heldNames`) wait. */
  async due(now: string, limit: number): Promise<ScheduleRow[]> {
    return this.db
      .selectFrom(SCHEDULES_TABLE)
      .selectAll()
      .where('at', '<=', now)
      .where(
        sql<boolean>`not exists (select 1 from ${sql.table(ACCOUNTS_TABLE)} a
          where a.name = ${sql.ref(`${SCHEDULES_TABLE}.scheduled_by`)} and a.disabled <> 0)`,
      )
      .orderBy('at')
      .orderBy('table_name')
      .orderBy('row_id')
      .limit(limit)
      .execute();
  }

  /**
   * Which of these schedulers' names are disabled accounts: their changes are held, neither made
   * nor dropped, until the account is enabled again.
   */
  async heldNames(names: readonly string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(ACCOUNTS_TABLE)}
      where disabled <> 0 and name in (${sql.join([...new Set(names)])})`.execute(this.db);
    return new Set(rows.map((row) => row.name));
  }

  /** The soonest pending change's time, or null. */
  async next(): Promise<string | null> {
    const row = await this.db
      .selectFrom(SCHEDULES_TABLE)
      .select((eb) => eb.fn.min('at').as('at'))
      .executeTakeFirst();
    return (row?.at as string | null | undefined) ?? null;
  }

  /** Removes every pending change of a table (its content type was deleted). */
  async removeTable(table: string): Promise<void> {
    await this.db.deleteFrom(SCHEDULES_TABLE).where('table_name', '=', table).execute();
  }
}
