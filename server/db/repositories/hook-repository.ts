import type { Generated, Kysely } from 'kysely';
import { sendLater } from '../queries/later-statements.js';
import type { QuireDatabase } from '../schema.js';

/** Build hooks: where and what to deliver. */
export const HOOKS_TABLE = 'quire_hooks';
/** Events waiting for delivery, one per hook that wants them. */
export const HOOK_OUTBOX_TABLE = 'quire_hook_outbox';
/** Each delivery attempt: when, how it went. */
export const HOOK_DELIVERIES_TABLE = 'quire_hook_deliveries';
export const HOOK_OUTBOX_INDEX = 'quire_hook_outbox:hook';
export const HOOK_DELIVERY_INDEX = 'quire_hook_deliveries:hook';
/** The tables in the order a copy loads them. */
export const HOOK_TABLES = [HOOKS_TABLE, HOOK_OUTBOX_TABLE, HOOK_DELIVERIES_TABLE] as const;

/** A stored hook. */
export interface HookRow {
  id: string;
  url: string;
  /** JSON array text, or null for all. */
  content_types: string | null;
  actions: string | null;
  secret: string | null;
  created_at: string;
  created_by: string | null;
  failures: number;
  retry_at: string | null;
  lease_until: string | null;
  lease_owner: string | null;
}

/** A stored event waiting for delivery. */
export interface OutboxRow {
  id: number;
  hook_id: string;
  table_name: string;
  row_id: string;
  action: string;
  at: string;
  changed_by: string | null;
  due_at: string;
  /** The change feed's cursor of the change (null for events queued before the feed). */
  cursor: string | null;
  /** The locales the change touched as the feed names them, JSON array text; null where it names none. */
  locales: string | null;
}

/** A stored delivery attempt. */
export interface DeliveryRow {
  id: number;
  hook_id: string;
  at: string;
  status: string;
  response_code: number | null;
  attempt: number;
  events: number;
  error: string | null;
}

type Numbered<T> = Omit<T, 'id'> & { id: Generated<number> };

interface HookTables {
  quire_hooks: HookRow;
  quire_hook_outbox: Numbered<OutboxRow>;
  quire_hook_deliveries: Numbered<DeliveryRow>;
}

/** Deliveries kept per hook (the newest). */
const KEPT_DELIVERIES = 200;

/**
 * All SQL of build hooks, the same on both engines. A hook's delivery is claimed with a lease on
 * its row (a conditional UPDATE, atomic on both engines: of several servers on one PostgreSQL
 * database exactly one gets it), so each batch of events is sent by one server; a lease that
 * runs out (its server died mid-delivery) lets another send the events again: at least once.
 */
export class HookRepository {
  private readonly db: Kysely<HookTables>;

  constructor(db: Kysely<QuireDatabase> | Kysely<unknown>) {
    this.db = db as unknown as Kysely<HookTables>;
  }

  async list(): Promise<HookRow[]> {
    return this.db.selectFrom(HOOKS_TABLE).selectAll().orderBy('created_at').orderBy('id').execute();
  }

  async find(id: string): Promise<HookRow | undefined> {
    return this.db.selectFrom(HOOKS_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(hook: HookRow): Promise<void> {
    await this.db.insertInto(HOOKS_TABLE).values(hook).execute();
  }

  async change(id: string, changes: Partial<Pick<HookRow, 'url' | 'content_types' | 'actions' | 'secret'>>) {
    await this.db.updateTable(HOOKS_TABLE).set(changes).where('id', '=', id).execute();
  }

  /** Removes a hook with its waiting events and its delivery log; whether it existed. */
  async remove(id: string): Promise<boolean> {
    await this.db.deleteFrom(HOOK_OUTBOX_TABLE).where('hook_id', '=', id).execute();
    await this.db.deleteFrom(HOOK_DELIVERIES_TABLE).where('hook_id', '=', id).execute();
    const result = await this.db.deleteFrom(HOOKS_TABLE).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Queues events (inside the write that made them). */
  async enqueue(events: readonly Omit<OutboxRow, 'id'>[]): Promise<void> {
    // Nothing reads its result: sent with the write's next awaited statement (later-statements.ts).
    if (events.length > 0)
      await this.db.executeQuery(
        sendLater(
          this.db
            .insertInto(HOOK_OUTBOX_TABLE)
            .values([...events])
            .compile(),
        ),
      );
  }

  /** Per hook with waiting events: the earliest time one of them may go out. */
  async waiting(): Promise<{ hook_id: string; due_at: string }[]> {
    const rows = await this.db
      .selectFrom(HOOK_OUTBOX_TABLE)
      .select(['hook_id', (eb) => eb.fn.min('due_at').as('due_at')])
      .groupBy('hook_id')
      .execute();
    return rows.map((row) => ({ hook_id: row.hook_id, due_at: String(row.due_at) }));
  }

  /**
   * Takes a hook's delivery until `until` unless another server holds it or it waits for a retry;
   * whether this server got it.
   */
  async lease(id: string, owner: string, now: string, until: string): Promise<boolean> {
    const result = await this.db
      .updateTable(HOOKS_TABLE)
      .set({ lease_until: until, lease_owner: owner })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .where((eb) => eb.or([eb('retry_at', 'is', null), eb('retry_at', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Ends this server's lease, recording the delivery's outcome for the hook's retries. */
  async release(id: string, owner: string, outcome: { failures: number; retry_at: string | null }): Promise<void> {
    await this.db
      .updateTable(HOOKS_TABLE)
      .set({ lease_until: null, lease_owner: null, failures: outcome.failures, retry_at: outcome.retry_at })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Forgets every lease (a SQLite server starting: no other server can hold one). */
  async releaseAll(): Promise<void> {
    await this.db.updateTable(HOOKS_TABLE).set({ lease_until: null, lease_owner: null }).execute();
  }

  /** A hook's waiting events, oldest first. */
  async events(hookId: string, limit: number): Promise<OutboxRow[]> {
    const rows = await this.db
      .selectFrom(HOOK_OUTBOX_TABLE)
      .selectAll()
      .where('hook_id', '=', hookId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /** Removes delivered (or given up) events. */
  async removeEvents(ids: readonly number[]): Promise<void> {
    if (ids.length > 0)
      await this.db
        .deleteFrom(HOOK_OUTBOX_TABLE)
        .where('id', 'in', [...ids])
        .execute();
  }

  /**
   * Ends a delivery that took its events out of the outbox (delivered, or given up): removes them
   * and logs the attempt in one transaction, so a crash between the two never leaves events gone
   * with no log of where they went, nor a log of a delivery whose events would go out again.
   */
  async settle(ids: readonly number[], delivery: Omit<DeliveryRow, 'id'>): Promise<DeliveryRow> {
    return this.db.transaction().execute(async (trx) => {
      const repository = new HookRepository(trx as unknown as Kysely<unknown>);
      await repository.removeEvents(ids);
      return repository.logDelivery(delivery);
    });
  }

  /** Records a delivery attempt and drops the hook's oldest beyond those kept. */
  async logDelivery(delivery: Omit<DeliveryRow, 'id'>): Promise<DeliveryRow> {
    const { id } = await this.db
      .insertInto(HOOK_DELIVERIES_TABLE)
      .values(delivery)
      .returning('id')
      .executeTakeFirstOrThrow();
    const kept = this.db
      .selectFrom(HOOK_DELIVERIES_TABLE)
      .select('id')
      .where('hook_id', '=', delivery.hook_id)
      .orderBy('id', 'desc')
      .limit(KEPT_DELIVERIES);
    await this.db
      .deleteFrom(HOOK_DELIVERIES_TABLE)
      .where('hook_id', '=', delivery.hook_id)
      .where('id', 'not in', kept)
      .execute();
    return { ...delivery, id: Number(id) };
  }

  /** A hook's deliveries, newest first. */
  async deliveries(hookId: string, limit: number, offset: number): Promise<{ rows: DeliveryRow[]; total: number }> {
    const rows = await this.db
      .selectFrom(HOOK_DELIVERIES_TABLE)
      .selectAll()
      .where('hook_id', '=', hookId)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    const count = await this.db
      .selectFrom(HOOK_DELIVERIES_TABLE)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('hook_id', '=', hookId)
      .executeTakeFirstOrThrow();
    return {
      rows: rows.map((row) => ({ ...row, id: Number(row.id), response_code: row.response_code ?? null })),
      total: Number(count.n),
    };
  }

  /** Events waiting for a hook (shown with it). */
  async waitingCount(hookId: string): Promise<number> {
    const count = await this.db
      .selectFrom(HOOK_OUTBOX_TABLE)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('hook_id', '=', hookId)
      .executeTakeFirstOrThrow();
    return Number(count.n);
  }
}
