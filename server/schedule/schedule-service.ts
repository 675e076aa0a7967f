import type { Kysely } from 'kysely';
import { normalizeDatetime, timestampNow } from '../../common/datetime-syntax.js';
import type { FieldProblems } from '../../common/field-problems.js';
import type { RowSchedule, ScheduledRow, ScheduleResponse } from '../../common/publishing-contract.js';
import type { ContentType } from '../content/content-type.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import type { ContentWrites } from '../content/content-writes.js';
import { parseRowInput } from '../content/row-input.js';
import type { RowActor, RowService } from '../content/row-service.js';
import {
  type HeldScheduleRow,
  ScheduleRepository,
  type ScheduleRow,
  scheduleOfRow,
} from '../db/repositories/schedule-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import type { StatementRunner } from '../db/statement-runner.js';
import { AppError, validationError } from '../errors/app-error.js';

/** How the scheduler runs. */
export interface SchedulerOptions {
  /** The clock due changes go by (tests move it). */
  now?: () => Date;
  /** How often due changes are looked for, in ms (default 1000); 0: only when `runDue` is called. */
  pollMs?: number;
}

/** The name of a row's schedule read in its page's statement (see `RowService.extras`). */
const SCHEDULE_EXTRA = 'quire:schedule';

/** The column a schedule sets. */
const STATUS = 'status';

/** Due changes applied per look. */
const DUE_BATCH = 50;

/** Thrown inside a scheduled write whose schedule another server (or a cancel) took first: undoes it. */
class ScheduleGone extends Error {}

/** Thrown inside a scheduled write whose scheduler's account was disabled since it was found due: undoes it. */
class ScheduleHeld extends Error {}

/**
 * Scheduled status changes (issue 15): a row's `status` set at a UTC time, as a normal write in the
 * name of whoever scheduled it (so it is a revision, and hooks hear of it). The schedule is taken
 * inside that write's transaction, so a change is applied exactly once: a server that was stopped
 * applies what fell due on its next start, and of several servers on one PostgreSQL database only
 * the one whose write removed the schedule keeps its write.
 */
export class ScheduleService {
  private readonly now: () => Date;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private log: (message: string, error: unknown) => void = () => {};
  /**
   * Every pending change by table and row, kept while no other process has committed (SQLite: this
   * server is the one writer of its file but for tools, whose commits the runner's token reveals),
   * so reads show schedules without a query. Null: not known. PostgreSQL always asks: other servers
   * schedule too.
   */
  private scheduled: { byTable: Map<string, Map<string, RowSchedule>>; token: number } | null = null;
  /** Moves on every change of schedules this server makes; a look that raced one is not kept. */
  private scheduleVersion = 0;
  private readonly reads: StatementRunner | undefined;

  constructor(
    private readonly db: Kysely<QuireDatabase>,
    private readonly registry: ContentTypeRegistry,
    private readonly rows: RowService,
    private readonly editorName: string | null,
    writes: ContentWrites,
    runner: StatementRunner | undefined,
    options: SchedulerOptions = {},
  ) {
    // Reads never run direct statements inside a write's open transaction (see ContentWrites.reads).
    this.reads = runner ? writes.reads : undefined;
    // A deleted row's pending change goes with it, in the delete's transaction (a row brought back
    // from the trash is not published by a schedule someone set before it was deleted).
    writes.observers.push(async (trx, scope, log) => {
      const deleted = log.changes.filter((change) => change.after === null && change.before !== null);
      if (deleted.length === 0) return;
      const repository = new ScheduleRepository(trx);
      for (const { before } of deleted) await repository.removeWithRow(scope.type.table, String(before?.id));
      this.forgetSchedules();
    });
    this.now = options.now ?? (() => new Date());
    this.pollMs = options.pollMs ?? 1000;
    const reads = new ScheduleRepository(db, this.reads);
    // Where schedules are not kept (PostgreSQL), each page's statement reads its rows' own.
    if (!this.reads) rows.extras.push({ name: SCHEDULE_EXTRA, select: scheduleOfRow });
    rows.decorators.push(async (type, found, extras) => {
      if (found.length === 0) return;
      if (extras.length === found.length && extras.every((extra) => SCHEDULE_EXTRA in extra)) {
        found.forEach((row, i) => {
          const schedule = extras[i][SCHEDULE_EXTRA] as HeldScheduleRow | null;
          const answer = schedule ? shown(schedule) : null;
          if (answer && schedule?.held) answer.held = 'account_disabled';
          (row as Record<string, unknown>).schedule = answer;
        });
        return;
      }
      // SQLite's kept schedules without a step through the event loop; else load them (or ask).
      const known = this.keptSchedules() ?? (await this.knownSchedules());
      let byRow = known?.get(type.table);
      if (!known) {
        const pending = await reads.forRows(
          type.table,
          found.map((row) => row.id),
        );
        byRow = new Map(pending.map((schedule) => [schedule.row_id, shown(schedule)]));
      }
      // Copies, so marking a hold never changes the kept schedules.
      for (const row of found) {
        const schedule = byRow?.get(row.id);
        (row as Record<string, unknown>).schedule = schedule ? { ...schedule } : null;
      }
      await this.markHeld(found.map((row) => (row as ScheduledRow).schedule));
    });
  }

  /** Schedules `status` for the row at `at` (UTC), replacing a pending change; the row must exist. */
  async schedule(type: ContentType, id: string, body: unknown, actor?: RowActor): Promise<ScheduleResponse> {
    const { status, at } = parseScheduleBody(type, body);
    const { row } = await this.rows.get(type, id);
    if (actor?.ownRowsOnly && (actor.name === null || row.created_by !== actor.name)) {
      throw new AppError(
        'forbidden',
        `${actor.name ?? 'An author'} may schedule only rows they created; this ${type.table} row is not theirs`,
      );
    }
    const schedule: ScheduleRow = {
      table_name: type.table,
      row_id: id,
      status,
      at,
      scheduled_by: actor ? actor.name : this.editorName,
      created_at: timestampNow(this.now()),
    };
    await new ScheduleRepository(this.db).put(schedule);
    this.forgetSchedules();
    this.wake();
    const answer = shown(schedule);
    await this.markHeld([answer]);
    return { id, schedule: answer };
  }

  /** Cancels the row's pending change (a 404 when it has none). */
  async cancel(type: ContentType, id: string, actor?: RowActor): Promise<ScheduleResponse> {
    const repository = new ScheduleRepository(this.db);
    const found = await repository.find(type.table, id);
    if (!found) throw new AppError('not_found', `The ${type.table} row ${JSON.stringify(id)} has no scheduled change`);
    if (actor?.ownRowsOnly && (actor.name === null || found.scheduled_by !== actor.name)) {
      const { row } = await this.rows.get(type, id);
      if (row.created_by !== actor.name) {
        throw new AppError('forbidden', `${actor.name ?? 'An author'} may cancel only schedules of rows they created`);
      }
    }
    await repository.remove(type.table, id);
    this.forgetSchedules();
    return { id, schedule: null };
  }

  /** The row's pending change, or null. */
  async pending(type: ContentType, id: string): Promise<RowSchedule | null> {
    const found = await new ScheduleRepository(this.db).find(type.table, id);
    if (!found) return null;
    const answer = shown(found);
    await this.markHeld([answer]);
    return answer;
  }

  /** Marks the schedules whose scheduler's account is disabled as held (one look-up, only when there are some). */
  private async markHeld(schedules: readonly (RowSchedule | null)[]): Promise<void> {
    const names = schedules.flatMap((schedule) => (schedule?.by == null ? [] : [schedule.by]));
    if (names.length === 0) return;
    const held = await new ScheduleRepository(this.db).heldNames(names);
    for (const schedule of schedules)
      if (schedule?.by != null && held.has(schedule.by)) schedule.held = 'account_disabled';
  }

  /**
   * Applies every change due by now; how many this server applied. Runs one look at a time (a call
   * while one runs waits for it, then looks again).
   */
  async runDue(): Promise<number> {
    const previous = this.running ?? Promise.resolve(0);
    const current = previous.catch(() => 0).then(() => this.applyDue());
    this.running = current;
    try {
      return await current;
    } finally {
      if (this.running === current) this.running = null;
    }
  }

  private async applyDue(): Promise<number> {
    let applied = 0;
    const repository = new ScheduleRepository(this.db);
    for (;;) {
      const due = await repository.due(timestampNow(this.now()), DUE_BATCH);
      let progressed = false;
      for (const schedule of due) {
        const outcome = await this.apply(schedule);
        if (outcome !== 'kept') progressed = true;
        if (outcome === 'applied') applied++;
      }
      if (due.length < DUE_BATCH || !progressed) return applied;
    }
  }

  /**
   * One due change as a normal write; `kept` when it failed for a passing reason (it stays and is
   * tried again), `dropped` when it can never apply (the row or its type is gone, the status is no
   * longer an option), `gone` when another server or a cancel took it first.
   */
  private async apply(schedule: ScheduleRow): Promise<'applied' | 'gone' | 'dropped' | 'kept'> {
    try {
      return await this.applyOne(schedule);
    } finally {
      this.forgetSchedules();
    }
  }

  private async applyOne(schedule: ScheduleRow): Promise<'applied' | 'gone' | 'dropped' | 'kept'> {
    const repository = new ScheduleRepository(this.db);
    const type = this.registry.list().find((candidate) => candidate.table === schedule.table_name);
    const actor: RowActor = {
      name: schedule.scheduled_by,
      ownRowsOnly: false,
      inTransaction: async (trx) => {
        const inWrite = new ScheduleRepository(trx);
        const by = schedule.scheduled_by;
        if (by !== null && (await inWrite.heldNames([by])).size > 0) throw new ScheduleHeld();
        if (!(await inWrite.claim(schedule))) throw new ScheduleGone();
      },
    };
    try {
      if (!type) throw new AppError('not_found', `The content type ${schedule.table_name} is gone`);
      await this.rows.update(type, schedule.row_id, { [STATUS]: schedule.status }, actor);
      return 'applied';
    } catch (error) {
      if (error instanceof ScheduleGone) return 'gone';
      if (error instanceof ScheduleHeld) return 'kept';
      if (error instanceof AppError && error.status < 500 && error.code !== 'conflict') {
        // It can never be written: dropped (only this exact schedule), and said so in the log.
        await repository.claim(schedule);
        this.log(
          `A scheduled change of ${schedule.table_name} ${schedule.row_id} to ${schedule.status} was dropped: ${error.message}`,
          error,
        );
        return 'dropped';
      }
      this.log(`A scheduled change of ${schedule.table_name} ${schedule.row_id} failed; it is tried again`, error);
      return 'kept';
    }
  }

  /** The kept pending changes when they are still true (SQLite, no other process committed), else null. */
  private keptSchedules(): Map<string, Map<string, RowSchedule>> | null {
    if (!this.reads || !this.scheduled) return null;
    return this.scheduled.token === this.reads.externalChangeToken() ? this.scheduled.byTable : null;
  }

  /** Every pending change by table and row when this server can keep them (SQLite), else null. */
  private async knownSchedules(): Promise<Map<string, Map<string, RowSchedule>> | null> {
    if (!this.reads) return null;
    const token = this.reads.externalChangeToken();
    if (this.scheduled?.token === token) return this.scheduled.byTable;
    const version = this.scheduleVersion;
    const byTable = new Map<string, Map<string, RowSchedule>>();
    for (const schedule of await new ScheduleRepository(this.db, this.reads).all()) {
      const byRow = byTable.get(schedule.table_name) ?? new Map<string, RowSchedule>();
      byTable.set(schedule.table_name, byRow);
      byRow.set(schedule.row_id, shown(schedule));
    }
    if (version === this.scheduleVersion) this.scheduled = { byTable, token };
    return byTable;
  }

  private forgetSchedules(): void {
    this.scheduleVersion++;
    this.scheduled = null;
  }

  /** Applies what fell due while the server was stopped, then looks every `pollMs`. */
  async start(log: (message: string, error: unknown) => void): Promise<void> {
    this.log = log;
    await this.runDue().catch((error) => log('Applying scheduled changes failed', error));
    if (this.pollMs > 0) this.arm();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private arm(): void {
    this.timer = setTimeout(() => {
      this.runDue()
        .catch((error) => this.log('Applying scheduled changes failed', error))
        .finally(() => {
          if (this.timer) this.arm();
        });
    }, this.pollMs);
    this.timer.unref?.();
  }

  /** A change scheduled for now or earlier is applied at once rather than at the next look. */
  private wake(): void {
    if (!this.timer) return;
    setImmediate(() => void this.runDue().catch((error) => this.log('Applying scheduled changes failed', error)));
  }
}

/** A stored schedule as rows and answers show it. */
function shown(schedule: ScheduleRow): RowSchedule {
  return { status: schedule.status, at: schedule.at, by: schedule.scheduled_by };
}

/** `{status, at}`: a status the type's status column accepts, and a real UTC datetime. */
function parseScheduleBody(type: ContentType, body: unknown): { status: string; at: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('bad_request', 'Send a JSON object: {"status": "published", "at": "2026-12-01 07:00:00"}');
  }
  const { status, at, ...rest } = body as Record<string, unknown>;
  const problems: FieldProblems = {};
  for (const name of Object.keys(rest)) problems[name] = { code: 'not_a_field', table: type.table };
  if (!type.columns.some((column) => column.name === STATUS)) {
    throw new AppError('bad_request', `The content type ${type.table} has no status column to schedule`);
  }
  if (status === undefined || status === null || status === '') problems.status = { code: 'required' };
  else if (typeof status !== 'string') problems.status = { code: 'not_text' };
  else {
    try {
      parseRowInput(type, { [STATUS]: status }, 'update');
    } catch (error) {
      if (error instanceof AppError && error.problems?.[STATUS]) problems.status = error.problems[STATUS];
      else throw error;
    }
  }
  const when = typeof at === 'string' ? normalizeDatetime(at) : null;
  if (at === undefined || at === null || at === '') problems.at = { code: 'required' };
  else if (when === null) problems.at = { code: 'not_a_datetime' };
  if (Object.keys(problems).length > 0) throw validationError(problems);
  return { status: status as string, at: when as string };
}
