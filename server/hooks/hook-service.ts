import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { timestampNow } from '../../common/datetime-syntax.js';
import type {
  HookAction,
  HookBody,
  HookCreatedResponse,
  HookDelivery,
  HookDeliveryListResponse,
  HookListResponse,
  HookSummary,
} from '../../common/publishing-contract.js';
import { storedLocalesOf } from '../changes/change-feed.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import type { RowScope, WriteLog, WriteObserver } from '../content/content-writes.js';
import { type DeliveryRow, HookRepository, type HookRow, type OutboxRow } from '../db/repositories/hook-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import { HookDispatcher } from './hook-dispatcher.js';
import { type HookInput, parseHookInput } from './hook-input.js';
import { DEFAULT_MAX_IN_FLIGHT, HookSender, type ListeningAddress } from './hook-sender.js';

/** How hooks deliver (tests make everything short and move the clock). */
export interface HookOptions {
  now?: () => Date;
  /** How often waiting events are looked for, ms (default 1000); 0: only when `deliverDue` is called. */
  pollMs?: number;
  /** Changes within this many ms of the first become one delivery (default 2000). */
  debounceMs?: number;
  /** The first retry's wait, ms (default 10 s); it doubles with each failure up to an hour. */
  retryBaseMs?: number;
  /** How long events are retried before they are given up, ms (default a day). */
  giveUpMs?: number;
  /** How long a receiver has to answer, ms (default 10 s). */
  timeoutMs?: number;
  /** Most deliveries (tests included) in flight at once; more wait their turn (default 4). */
  maxInFlight?: number;
}

/** What HookService keeps hooks in, and how they deliver. */
export interface HookServiceOptions extends HookOptions {
  db: Kysely<QuireDatabase>;
  registry: ContentTypeRegistry;
  /**
   * The change feed's cursors of a write's changes, index for index with `log.changes`, once the
   * feed's observer has run before this one's (ChangeFeedService.cursorsOf); none without a feed.
   */
  cursorsOf?: (log: WriteLog) => readonly (string | undefined)[];
}

/** The defaults of HookOptions, filled in. */
export type HookSettings = Required<Omit<HookOptions, 'now'>> & { now: () => Date };

export function hookSettings(options: HookOptions = {}): HookSettings {
  return {
    now: options.now ?? (() => new Date()),
    pollMs: options.pollMs ?? 1000,
    debounceMs: options.debounceMs ?? 2000,
    retryBaseMs: options.retryBaseMs ?? 10_000,
    giveUpMs: options.giveUpMs ?? 24 * 60 * 60 * 1000,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxInFlight: options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
  };
}

/** A hook as kept in memory for the write path: what it wants. */
interface HookFilter {
  id: string;
  types: ReadonlySet<string> | null;
  actions: ReadonlySet<string> | null;
}

/**
 * Build hooks: admins configure them here; every committed row change is queued for the hooks
 * that want it in an outbox written inside the change's own transaction (`onWrite`, a ContentWrites
 * observer), so a crash between the write and the delivery loses nothing; the dispatcher sends
 * them after the debounce, signed, and retries (see HookDispatcher).
 *
 * The write path reads the hooks from memory; they are read again after each change here and at
 * every look of the dispatcher, so a hook another server on the same PostgreSQL database added is
 * heard of within a poll.
 */
export class HookService {
  readonly settings: HookSettings;
  readonly dispatcher: HookDispatcher;
  /** Sends every delivery: never to this server, a few at a time. */
  readonly sender: HookSender;
  private filters: HookFilter[] = [];

  private readonly db: Kysely<QuireDatabase>;
  private readonly registry: ContentTypeRegistry;
  private readonly cursorsOf: (log: WriteLog) => readonly (string | undefined)[];

  constructor(options: HookServiceOptions) {
    const { db, registry, cursorsOf, ...hookOptions } = options;
    this.db = db;
    this.registry = registry;
    this.cursorsOf = cursorsOf ?? (() => []);
    this.settings = hookSettings(hookOptions);
    this.sender = new HookSender({ maxInFlight: this.settings.maxInFlight });
    this.dispatcher = new HookDispatcher({
      db,
      settings: this.settings,
      sender: this.sender,
      refresh: () => this.refresh(),
    });
  }

  /** The ContentWrites observer: queues a write's changes for the hooks that want them, in its transaction. */
  readonly onWrite: WriteObserver = (trx, scope, log) => this.enqueue(trx, scope, log);

  /** Whether some hook takes changes of `table` (its writes' events then carry their cursors). */
  wants(table: string): boolean {
    return this.filters.some((hook) => !hook.types || hook.types.has(table));
  }

  /** Reads the hooks again (what the write path matches changes against). */
  async refresh(): Promise<HookRow[]> {
    const hooks = await new HookRepository(this.db).list();
    this.filters = hooks.map((hook) => ({
      id: hook.id,
      types: setOf(hook.content_types),
      actions: setOf(hook.actions),
    }));
    return hooks;
  }

  /** Queues the write's changes for the hooks that want them, in the write's transaction. */
  private async enqueue(trx: Kysely<QuireDatabase>, scope: RowScope, log: WriteLog): Promise<void> {
    if (this.filters.length === 0) return;
    const now = this.settings.now();
    const at = timestampNow(now);
    const dueAt = timestampNow(new Date(now.getTime() + this.settings.debounceMs));
    const events: Omit<OutboxRow, 'id'>[] = [];
    const cursors = this.cursorsOf(log);
    for (const [index, change] of log.changes.entries()) {
      const { before, after } = change;
      const row = after ?? before;
      if (!row) continue;
      const action: HookAction =
        after === null ? 'delete' : scope.restore ? 'restore' : before === null ? 'create' : 'update';
      for (const hook of this.filters) {
        if (hook.types && !hook.types.has(scope.type.table)) continue;
        if (hook.actions && !hook.actions.has(action)) continue;
        events.push({
          hook_id: hook.id,
          table_name: scope.type.table,
          row_id: String(row.id),
          action,
          at,
          changed_by: scope.by ?? null,
          due_at: dueAt,
          cursor: cursors[index] ?? null,
          locales: storedLocalesOf(change),
        });
      }
    }
    await new HookRepository(trx).enqueue(events);
  }

  async list(): Promise<HookListResponse> {
    const repository = new HookRepository(this.db);
    const hooks = await repository.list();
    return {
      hooks: await Promise.all(hooks.map(async (hook) => summary(hook, await repository.waitingCount(hook.id)))),
    };
  }

  async get(id: string): Promise<HookSummary> {
    const repository = new HookRepository(this.db);
    return summary(await this.found(id), await repository.waitingCount(id));
  }

  /** Adds a hook; its secret is in this answer only. */
  async create(body: unknown, by: string | null): Promise<HookCreatedResponse> {
    const input = this.notSelf(parseHookInput(body, 'create', (name) => this.tableOf(name)));
    const hook: HookRow = {
      id: randomBytes(9).toString('base64url'),
      url: input.url as string,
      content_types: input.content_types ? JSON.stringify(input.content_types) : null,
      actions: input.actions ? JSON.stringify(input.actions) : null,
      secret: input.secret ?? null,
      created_at: timestampNow(this.settings.now()),
      created_by: by,
      failures: 0,
      retry_at: null,
      lease_until: null,
      lease_owner: null,
    };
    await new HookRepository(this.db).insert(hook);
    await this.refresh();
    return { ...summary(hook, 0), secret: hook.secret };
  }

  /** Changes what the request names (a secret can be replaced or removed, never read). */
  async change(id: string, body: unknown): Promise<HookSummary> {
    await this.found(id);
    const input = this.notSelf(parseHookInput(body, 'change', (name) => this.tableOf(name)));
    const changes: Parameters<HookRepository['change']>[1] = {};
    if (input.url !== undefined) changes.url = input.url;
    if (input.content_types !== undefined)
      changes.content_types = input.content_types ? JSON.stringify(input.content_types) : null;
    if (input.actions !== undefined) changes.actions = input.actions ? JSON.stringify(input.actions) : null;
    if (input.secret !== undefined) changes.secret = input.secret;
    if (Object.keys(changes).length > 0) await new HookRepository(this.db).change(id, changes);
    await this.refresh();
    return this.get(id);
  }

  /** Removes a hook, its waiting events and its delivery log. */
  async remove(id: string): Promise<{ id: string; deleted: true }> {
    if (!(await new HookRepository(this.db).remove(id))) throw noHook(id);
    await this.refresh();
    return { id, deleted: true };
  }

  async deliveries(id: string, limit: number, offset: number): Promise<HookDeliveryListResponse> {
    await this.found(id);
    const { rows, total } = await new HookRepository(this.db).deliveries(id, limit, offset);
    return { total, limit, offset, deliveries: rows.map(deliveryShown) };
  }

  /** Sends a test event now and answers how it went (logged; the hook's retries are not touched). */
  async test(id: string, by: string | null): Promise<HookDelivery> {
    const hook = await this.found(id);
    const at = timestampNow(this.settings.now());
    const event = { event: 'test' as const, type: '', id: '', action: 'test' as const, at, by };
    const body: HookBody = { ...event, events: [event] };
    const outcome = await this.sender.send(
      hook.url,
      JSON.stringify(body),
      hook.secret,
      { 'X-Quire-Event': 'test' },
      this.settings.timeoutMs,
    );
    const logged = await new HookRepository(this.db).logDelivery({
      hook_id: id,
      at: timestampNow(this.settings.now()),
      status: outcome.ok ? 'test_delivered' : 'test_failed',
      response_code: outcome.status,
      attempt: 1,
      events: 1,
      error: outcome.error,
    });
    return deliveryShown(logged);
  }

  /**
   * Reads the hooks and starts delivering. `exclusive`: no other server uses the database (SQLite),
   * so leases a killed server left are freed at once rather than when they run out. `listening`:
   * where this server listens, which deliveries never go to.
   */
  async start(
    log: (message: string, error: unknown) => void,
    exclusive: boolean,
    listening: ListeningAddress | string | null = null,
  ): Promise<void> {
    this.sender.listenOn(listening);
    if (exclusive) await this.dispatcher.releaseAll();
    await this.refresh();
    await this.dispatcher.start(log);
  }

  stop(): Promise<void> {
    return this.dispatcher.stop();
  }

  private async found(id: string): Promise<HookRow> {
    const hook = await new HookRepository(this.db).find(id);
    if (!hook) throw noHook(id);
    return hook;
  }

  /** A hook write whose address is plainly this server is refused (400): its deliveries would call Quire. */
  private notSelf(input: HookInput): HookInput {
    const self = input.url === undefined ? null : this.sender.clearlySelf(input.url);
    if (self) throw new AppError('bad_request', self);
    return input;
  }

  private tableOf(name: string): string | null {
    const type = this.registry.list().find((candidate) => candidate.table === name || candidate.slug === name);
    return type ? type.table : null;
  }
}

function noHook(id: string): AppError {
  return new AppError('not_found', `There is no hook ${JSON.stringify(id)}`);
}

function setOf(stored: string | null): ReadonlySet<string> | null {
  return stored === null ? null : new Set(parseList(stored));
}

function parseList(stored: string | null): string[] | null {
  if (stored === null) return null;
  try {
    const value: unknown = JSON.parse(stored);
    if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  } catch {
    // falls through: a damaged filter matches nothing rather than everything
  }
  return [];
}

function summary(hook: HookRow, waiting: number): HookSummary {
  return {
    id: hook.id,
    url: hook.url,
    content_types: parseList(hook.content_types),
    actions: parseList(hook.actions) as HookAction[] | null,
    has_secret: hook.secret !== null,
    created_at: hook.created_at,
    created_by: hook.created_by,
    waiting,
    failures: Number(hook.failures),
    retry_at: hook.retry_at,
  };
}

export function deliveryShown(row: DeliveryRow): HookDelivery {
  return {
    id: row.id,
    at: row.at,
    status: row.status as HookDelivery['status'],
    response_code: row.response_code === null ? null : Number(row.response_code),
    attempt: Number(row.attempt),
    events: Number(row.events),
    error: row.error,
  };
}
