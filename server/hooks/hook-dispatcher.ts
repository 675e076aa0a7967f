import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { timestampNow } from '../../common/datetime-syntax.js';
import type { HookAction, HookBody, HookEvent } from '../../common/publishing-contract.js';
import { HookRepository, type HookRow, type OutboxRow } from '../db/repositories/hook-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import type { HookSender } from './hook-sender.js';
import type { HookSettings } from './hook-service.js';

/** Most events in one delivery (more wait for the next). */
const MAX_EVENTS = 100;

/** The longest wait between retries. */
const MAX_RETRY_MS = 60 * 60 * 1000;

/** How long a lease outlives the receiver's timeout (the rest of the delivery's bookkeeping). */
const LEASE_MARGIN_MS = 10_000;

/**
 * Sends the outbox's events. A hook's events go out once the first of them is past its
 * debounce, all waiting ones in one POST (up to MAX_EVENTS); a failed delivery is tried again after
 * a wait that doubles (from `retryBaseMs`, at most an hour) until its oldest event is `giveUpMs`
 * old, when its events are dropped and the log says so. Events leave the outbox only once a
 * receiver has taken them (2xx), so a crash or restart sends them again: at least once.
 *
 * A hook is delivered by whoever leases it (see HookRepository.lease): one server at a time, also
 * with several servers on one PostgreSQL database.
 */
export class HookDispatcher {
  /** Names this server's leases. */
  private readonly owner = randomBytes(9).toString('base64url');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** Aborted by `stop`: a delivery under way is given up (its events stay, and go out later). */
  private stopping = new AbortController();
  private log: (message: string, error: unknown) => void = () => {};

  private readonly db: Kysely<QuireDatabase>;
  private readonly settings: HookSettings;
  private readonly sender: HookSender;
  /** Reads the hooks again (the write path's copy too), before each look. */
  private readonly refresh: () => Promise<HookRow[]>;

  constructor(options: {
    db: Kysely<QuireDatabase>;
    settings: HookSettings;
    sender: HookSender;
    refresh: () => Promise<HookRow[]>;
  }) {
    this.db = options.db;
    this.settings = options.settings;
    this.sender = options.sender;
    this.refresh = options.refresh;
  }

  /** Delivers what is due now (one look at a time: a call during one waits for it, then looks). */
  async deliverDue(): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(() => this.look());
    this.running = current;
    try {
      await current;
    } finally {
      if (this.running === current) this.running = null;
    }
  }

  private async look(): Promise<void> {
    const repository = new HookRepository(this.db);
    const hooks = new Map((await this.refresh()).map((hook) => [hook.id, hook]));
    const now = timestampNow(this.settings.now());
    for (const waiting of await repository.waiting()) {
      const hook = hooks.get(waiting.hook_id);
      if (!hook) {
        // Queued by a write that raced the hook's removal.
        await repository.removeEvents((await repository.events(waiting.hook_id, MAX_EVENTS)).map((event) => event.id));
        continue;
      }
      if (waiting.due_at > now) continue;
      await this.deliver(repository, hook.id);
    }
  }

  /** One delivery of a hook's waiting events, if this server gets its lease. */
  private async deliver(repository: HookRepository, hookId: string): Promise<void> {
    const started = this.settings.now();
    const until = timestampNow(new Date(started.getTime() + this.settings.timeoutMs + LEASE_MARGIN_MS));
    if (!(await repository.lease(hookId, this.owner, timestampNow(started), until))) return;
    let outcome = { failures: 0, retry_at: null as string | null };
    try {
      const hook = (await repository.find(hookId)) as HookRow;
      outcome.failures = Number(hook.failures);
      const events = await repository.events(hookId, MAX_EVENTS);
      if (events.length === 0) return;
      const attempt = outcome.failures + 1;
      const body = JSON.stringify(bodyOf(events));
      const sent = await this.sender.send(
        hook.url,
        body,
        hook.secret,
        { 'X-Quire-Event': 'content.change' },
        this.settings.timeoutMs,
        this.stopping.signal,
      );
      // Cut short by a stop: not the receiver's failure; the events wait for the next server.
      if (this.stopping.signal.aborted) {
        outcome.retry_at = hook.retry_at;
        return;
      }
      const now = this.settings.now();
      const ids = events.map((event) => event.id);
      const logged = {
        hook_id: hookId,
        at: timestampNow(now),
        response_code: sent.status,
        attempt,
        events: events.length,
        error: sent.error,
      };
      if (sent.ok) {
        await repository.settle(ids, { ...logged, status: 'delivered' });
        outcome = { failures: 0, retry_at: null };
        return;
      }
      const oldest = timestampMs(events[0].at);
      if (now.getTime() - oldest >= this.settings.giveUpMs) {
        await repository.settle(ids, { ...logged, status: 'gave_up' });
        outcome = { failures: 0, retry_at: null };
        return;
      }
      await repository.logDelivery({ ...logged, status: 'failed' });
      const wait = Math.min(this.settings.retryBaseMs * 2 ** (attempt - 1), MAX_RETRY_MS);
      outcome = { failures: attempt, retry_at: timestampNow(new Date(now.getTime() + wait)) };
    } finally {
      await repository.release(hookId, this.owner, outcome);
    }
  }

  /** Frees leases a stopped server left (only safe where no other server can hold one: SQLite). */
  releaseAll(): Promise<void> {
    return new HookRepository(this.db).releaseAll();
  }

  /** Delivers what waited over a restart, then looks every `pollMs`. */
  async start(log: (message: string, error: unknown) => void): Promise<void> {
    this.log = log;
    this.stopping = new AbortController();
    if (this.settings.pollMs > 0) this.arm(0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopping.abort();
    await this.running?.catch(() => undefined);
  }

  private arm(delay: number): void {
    this.timer = setTimeout(() => {
      this.deliverDue()
        .catch((error) => this.log('Delivering build hooks failed; trying again', error))
        .finally(() => {
          if (this.timer) this.arm(this.settings.pollMs);
        });
    }, delay);
    this.timer.unref?.();
  }
}

/** The body of a delivery: the newest event at the top, every event in `events`. */
export function bodyOf(events: readonly OutboxRow[]): HookBody {
  const shown: HookEvent[] = events.map((event) => ({
    event: 'content.change',
    type: event.table_name,
    id: event.row_id,
    action: event.action as HookAction,
    at: event.at,
    by: event.changed_by,
    ...(event.cursor ? { cursor: event.cursor } : {}),
    ...(event.locales !== null ? { locales: JSON.parse(event.locales) as string[] } : {}),
  }));
  return { ...shown[shown.length - 1], events: shown };
}

/** A server timestamp (UTC `YYYY-MM-DD HH:MM:SS[.ffffff]`) in ms. */
function timestampMs(timestamp: string): number {
  return Date.parse(`${timestamp.slice(0, 23).replace(' ', 'T')}Z`);
}
