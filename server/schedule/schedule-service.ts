import type { Kysely } from 'kysely';
import { normalizeDatetime, timestampNow } from '../../common/datetime-syntax.js';
import type { FieldProblems } from '../../common/field-problems.js';
import type { RowSchedule, ScheduleResponse } from '../../common/publishing-contract.js';
import type { ContentType } from '../content/content-type.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import { parseRowInput } from '../content/row-input.js';
import type { RowActor, RowService } from '../content/row-service.js';
import { ScheduleRepository, type ScheduleRow } from '../db/repositories/schedule-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError, validationError } from '../errors/app-error.js';
import { type RowSchedules, shownSchedule } from './row-schedules.js';

/** How the scheduler runs. */
export interface SchedulerOptions {
  /** The clock due changes go by (tests move it). */
  now?: () => Date;
  /** How often due changes are looked for, in ms (default 1000); 0: only when `runDue` is called. */
  pollMs?: number;
}

/** The column a schedule sets. */
const STATUS = 'status';

/** Due changes applied per look. */
const DUE_BATCH = 50;

/** Thrown inside a scheduled write whose schedule another server (or a cancel) took first: undoes it. */
class ScheduleGone extends Error {}

/** Thrown inside a scheduled write whose scheduler's account was disabled since it was found due: undoes it. */
class ScheduleHeld extends Error {}

/** What ScheduleService applies changes through. */
export interface ScheduleServiceOptions extends SchedulerOptions {
  db: Kysely<QuireDatabase>;
  registry: ContentTypeRegistry;
  rows: RowService;
  /** The pending changes rows read show, forgotten here on every change of schedules. */
  rowSchedules: RowSchedules;
  /** Name recorded as the scheduler when a request names no actor (`--editor`). */
  editorName: string | null;
}

/**
 * Scheduled status changes: a row's `status` set at a UTC time, as a normal write in the name of
 * whoever scheduled it (so it is a revision, and hooks hear of it). The schedule is taken inside
 * that write's transaction, so a change is applied exactly once: a server that was stopped applies
 * what fell due on its next start, and of several servers on one PostgreSQL database only the one
 * whose write removed the schedule keeps its write. Rows read show their pending change through
 * RowSchedules.
 */
export class ScheduleService {
  private readonly now: () => Date;
  private readonly pollMs: number;
  private readonly db: Kysely<QuireDatabase>;
  private readonly registry: ContentTypeRegistry;
  private readonly rows: RowService;
  private readonly rowSchedules: RowSchedules;
  private readonly editorName: string | null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private log: (message: string, error: unknown) => void = () => {};

  constructor(options: ScheduleServiceOptions) {
    this.db = options.db;
    this.registry = options.registry;
    this.rows = options.rows;
    this.rowSchedules = options.rowSchedules;
    this.editorName = options.editorName;
    this.now = options.now ?? (() => new Date());
    this.pollMs = options.pollMs ?? 1000;
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
    this.rowSchedules.forget();
    this.wake();
    const answer = shownSchedule(schedule);
    await this.rowSchedules.markHeld([answer]);
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
    this.rowSchedules.forget();
    return { id, schedule: null };
  }

  /** The row's pending change, or null. */
  async pending(type: ContentType, id: string): Promise<RowSchedule | null> {
    const found = await new ScheduleRepository(this.db).find(type.table, id);
    if (!found) return null;
    const answer = shownSchedule(found);
    await this.rowSchedules.markHeld([answer]);
    return answer;
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
      this.rowSchedules.forget();
    }
  }

  private async applyOne(schedule: ScheduleRow): Promise<'applied' | 'gone' | 'dropped' | 'kept'> {
    const repository = new ScheduleRepository(this.db);
    const type = this.registry.list().find((candidate) => candidate.table === schedule.table_name);
    const actor: RowActor = {
      name: schedule.scheduled_by,
      ownRowsOnly: false,
      origin: 'schedule',
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
