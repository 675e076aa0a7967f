import type { Kysely } from 'kysely';
import type { RowSchedule, ScheduledRow } from '../../common/publishing-contract.js';
import type { WriteObserver } from '../content/content-writes.js';
import type { RowDecorator } from '../content/row-service.js';
import type { RowExtra } from '../db/queries/read-marks.js';
import {
  type HeldScheduleRow,
  ScheduleRepository,
  type ScheduleRow,
  scheduleOfRow,
} from '../db/repositories/schedule-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import type { StatementRunner } from '../db/statement-runner.js';

/** The name of a row's schedule read in its page's statement (see RowServiceOptions.extras). */
const SCHEDULE_EXTRA = 'quire:schedule';

/** Pending changes by table, then row. */
type SchedulesByTable = Map<string, Map<string, RowSchedule>>;

/** What RowSchedules reads schedules with. */
export interface RowSchedulesOptions {
  db: Kysely<QuireDatabase>;
  /** The write path's reads outside writes (`committedReads`), where this server keeps schedules (SQLite). */
  reads?: StatementRunner;
}

/**
 * The pending change each row read shows, and the schedules' part in the write path: a RowService
 * decorator (`decorate`, with `extras`) and a ContentWrites observer (`onWrite`). Where this
 * server is the one writer of its file but for tools (SQLite, `reads` given), every pending change
 * is kept by table and row while no other process has committed (the runner's token reveals a
 * tool's commit), so reads show schedules without a query. PostgreSQL always asks: other servers
 * schedule too, so each page's statement reads its rows' own.
 */
export class RowSchedules {
  private readonly db: Kysely<QuireDatabase>;
  private readonly reads: StatementRunner | undefined;
  /** Every pending change, and the runner's token it was read at; null: not known. */
  private scheduled: { byTable: SchedulesByTable; token: number } | null = null;
  /** Moves on every change of schedules this server makes; a load that raced one is not kept. */
  private version = 0;
  /** Read beside every page's rows in their own statement where schedules are not kept. */
  readonly extras: readonly RowExtra[];

  constructor(options: RowSchedulesOptions) {
    this.db = options.db;
    this.reads = options.reads;
    this.extras = this.reads ? [] : [{ name: SCHEDULE_EXTRA, select: scheduleOfRow }];
  }

  /**
   * The ContentWrites observer: a deleted row's pending change goes with it, in the delete's
   * transaction (a row brought back from the trash is not published by a schedule someone set
   * before it was deleted).
   */
  readonly onWrite: WriteObserver = async (trx, scope, log) => {
    const deleted = log.changes.filter((change) => change.after === null && change.before !== null);
    if (deleted.length === 0) return;
    const repository = new ScheduleRepository(trx);
    for (const { before } of deleted) await repository.removeWithRow(scope.type.table, String(before?.id));
    this.forget();
  };

  /** The RowService decorator: sets each row's `schedule` (its pending change, or null). */
  readonly decorate: RowDecorator = async (type, found, extras) => {
    if (found.length === 0) return;
    if (extras.length === found.length && extras.every((extra) => SCHEDULE_EXTRA in extra)) {
      found.forEach((row, i) => {
        const schedule = extras[i][SCHEDULE_EXTRA] as HeldScheduleRow | null;
        const answer = schedule ? shownSchedule(schedule) : null;
        if (answer && schedule?.held) answer.held = 'account_disabled';
        (row as Record<string, unknown>).schedule = answer;
      });
      return;
    }
    // The kept schedules without a step through the event loop; else load them (or ask).
    const known = this.kept() ?? (await this.known());
    let byRow = known?.get(type.table);
    if (!known) {
      const pending = await new ScheduleRepository(this.db, this.reads).forRows(
        type.table,
        found.map((row) => row.id),
      );
      byRow = new Map(pending.map((schedule) => [schedule.row_id, shownSchedule(schedule)]));
    }
    // Copies, so marking a hold never changes the kept schedules.
    for (const row of found) {
      const schedule = byRow?.get(row.id);
      (row as Record<string, unknown>).schedule = schedule ? { ...schedule } : null;
    }
    await this.markHeld(found.map((row) => (row as ScheduledRow).schedule));
  };

  /** Forgets the kept schedules: this server changed one. */
  forget(): void {
    this.version++;
    this.scheduled = null;
  }

  /** Marks the schedules whose scheduler's account is disabled as held (one look-up, only when there are some). */
  async markHeld(schedules: readonly (RowSchedule | null)[]): Promise<void> {
    const names = schedules.flatMap((schedule) => (schedule?.by == null ? [] : [schedule.by]));
    if (names.length === 0) return;
    const held = await new ScheduleRepository(this.db).heldNames(names);
    for (const schedule of schedules)
      if (schedule?.by != null && held.has(schedule.by)) schedule.held = 'account_disabled';
  }

  /** The kept pending changes when they are still true (no other process committed), else null. */
  private kept(): SchedulesByTable | null {
    if (!this.reads || !this.scheduled) return null;
    return this.scheduled.token === this.reads.externalChangeToken() ? this.scheduled.byTable : null;
  }

  /** Every pending change by table and row when this server can keep them, else null. */
  private async known(): Promise<SchedulesByTable | null> {
    if (!this.reads) return null;
    const token = this.reads.externalChangeToken();
    if (this.scheduled?.token === token) return this.scheduled.byTable;
    const version = this.version;
    const byTable: SchedulesByTable = new Map();
    for (const schedule of await new ScheduleRepository(this.db, this.reads).all()) {
      const byRow = byTable.get(schedule.table_name) ?? new Map<string, RowSchedule>();
      byTable.set(schedule.table_name, byRow);
      byRow.set(schedule.row_id, shownSchedule(schedule));
    }
    if (version === this.version) this.scheduled = { byTable, token };
    return byTable;
  }
}

/** A stored schedule as rows and answers show it. */
export function shownSchedule(schedule: ScheduleRow): RowSchedule {
  return { status: schedule.status, at: schedule.at, by: schedule.scheduled_by };
}
