import { CompiledQuery, type Kysely } from 'kysely';
import type { RevisionOrigin } from '../../common/revision-contract.js';
import type { QuireDatabase } from '../db/schema.js';
import { connectionRunner, type StatementRunner } from '../db/statement-runner.js';
import type { ContentType } from './content-type.js';
import { ReadCache, type RowChange } from './read-cache.js';

/** What a write changes: one type's rows (a create only adds), or the content types themselves. */
export type WriteScope = RowScope | { schema: true };

/**
 * A row write's scope: one type's rows; a create only adds. `by` is who writes (recorded in the
 * row's history); `restore` marks a write that puts an earlier version back, `restoredFrom` when
 * that version was written, and `origin` why the write happens (absent: a person's edit).
 */
export type RowScope = {
  type: ContentType;
  onlyAdds: boolean;
  by?: string | null;
  restore?: boolean;
  restoredFrom?: string | null;
  origin?: RevisionOrigin;
};

/**
 * Work that runs inside a row write's transaction once the write's own work has succeeded (inside
 * its savepoint in a batch), with what it changed: a failure undoes the write with it, and a write
 * that fails records nothing. Revisions, schedules and the build-hook outbox are observers.
 */
export type WriteObserver = (trx: Kysely<QuireDatabase>, scope: RowScope, log: WriteLog) => Promise<void>;

/** What a running write reports back: the rows it changed, and work to run once it has committed. */
export interface WriteLog {
  /** Rows the write changed, in order (row writes only). */
  changes: RowChange[];
  /** The read cache's gap token when a create began (see ReadCache.rememberSlug); undefined otherwise. */
  gapToken: number | undefined;
  /**
   * Run once the write's changes are kept: after its commit, or in a batch as soon as its savepoint
   * is released, so later writes of the batch build on what it learnt (a slug taken). A batch that
   * fails after that empties the read cache: nothing learnt this way outlives uncommitted rows.
   */
  whenKept: (() => void)[];
}

/** The read cache and the reads outside writes over one connection's runner (see `committedReads`). */
export interface CommittedReads {
  cache: ReadCache;
  reads: StatementRunner;
}

/** What ContentWrites runs on and who hears of its row writes. */
export interface ContentWritesOptions {
  db: Kysely<QuireDatabase>;
  /** One connection's statements: with it, row writes share commits and reads are cached (SQLite). */
  runner?: StatementRunner;
  /** The read cache and reads over `runner`, when made beforehand (`committedReads`); made here otherwise. */
  committed?: CommittedReads | null;
  /** Run in order inside every row write's transaction that changed rows (revisions, schedules, build hooks). */
  observers?: readonly WriteObserver[];
}

type Work<T> = (trx: Kysely<QuireDatabase>, log: WriteLog) => Promise<T>;

/** A row write waiting for, or running in, a batch. */
interface QueuedWrite {
  scope: RowScope;
  work: Work<unknown>;
  log: WriteLog;
  /** Set when its work has run: its value, or the error it threw (its savepoint was undone). */
  outcome: { ok: true; value: unknown } | { ok: false; error: unknown } | null;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Most writes sharing one commit: bounds the wait of the batch's first write. */
const MAX_BATCH = 64;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The one way content tables change. Every write (rows, search-index batches, content types and
 * their migrations) runs in a transaction here, and the read cache hears of it before the
 * transaction starts and after it ends: while a write holds the connection, reads wait their turn
 * through Kysely instead of running prepared statements on it mid-transaction, and nothing the
 * cache keeps outlives a change it did not follow (a content-type change empties it).
 *
 * Group commit (SQLite, where a runner gives one connection): row writes arriving together run one
 * after another in one transaction, each under its own savepoint, and commit together (one sync to
 * disk for all, `synchronous=FULL` kept). A write that fails is undone alone and gets its own error;
 * every write is answered only once the commit has returned, so a 2xx still means on disk, and a
 * crash before the commit loses only writes nobody was told about. Reads never see the open batch:
 * the read cache changes only after the commit, and direct reads go through Kysely (which waits for
 * the connection) while any write is under way. PostgreSQL keeps one transaction per write, run
 * concurrently over its pool.
 */
export class ContentWrites {
  /** Exact counts and pages kept between writes; null without a statement runner (no direct reads). */
  readonly cache: ReadCache | null;
  /**
   * The statement runner for reads outside writes: direct statements while no write is under way,
   * otherwise queued through Kysely behind the write's transaction (so never reading uncommitted
   * rows, even a read that started before the write). Undefined without a runner.
   */
  readonly reads: StatementRunner | undefined;
  /** Row writes waiting for the next batch. */
  private readonly queue: QueuedWrite[] = [];
  /** Whether batches are being run (the queue is drained until empty). */
  private batching = false;

  private readonly db: Kysely<QuireDatabase>;
  private readonly runner: StatementRunner | undefined;
  /** Run inside every row write's transaction that changed rows, in order (see WriteObserver). */
  private readonly observers: readonly WriteObserver[];

  constructor(options: ContentWritesOptions) {
    this.db = options.db;
    this.runner = options.runner;
    this.observers = options.observers ?? [];
    const committed = options.committed === undefined ? committedReads(options.db, options.runner) : options.committed;
    this.cache = committed?.cache ?? null;
    this.reads = committed?.reads;
  }

  /** The content-type change under way (they run one at a time), or null. */
  private schemaChanging: Promise<unknown> | null = null;

  /**
   * Runs a content-type change (validation, migration, registry reload) while no other runs. Its
   * transaction goes through `run` like every write; callers that resolve a content type by name
   * wait for `settled()` first, so none plans against a type that is being changed.
   */
  changeSchema<T>(operation: () => Promise<T>): Promise<T> {
    const previous = this.schemaChanging ?? Promise.resolve();
    const current = previous.then(operation, operation);
    const tracked = current.then(
      () => undefined,
      () => undefined,
    );
    this.schemaChanging = tracked;
    void tracked.then(() => {
      if (this.schemaChanging === tracked) this.schemaChanging = null;
    });
    return current;
  }

  /** A promise to wait for before resolving a content type by name, or null when none is changing. */
  settled(): Promise<unknown> | null {
    return this.schemaChanging;
  }

  /** Whether a write holds the connection now (reads must then queue through Kysely). */
  get writing(): boolean {
    if (!this.cache) return true;
    this.cache.sync();
    return this.cache.writing;
  }

  /**
   * Runs `work` in a transaction; the read cache follows what it changed, or forgets on failure.
   * Row writes on a single connection share a transaction and its commit with the writes arriving
   * with them (see the class comment); they settle only after that commit.
   */
  run<T>(scope: WriteScope, work: Work<T>): Promise<T> {
    if (!('type' in scope)) return this.runAlone(scope, work);
    const observed: Work<T> = async (trx, log) => {
      const value = await work(trx, log);
      if (log.changes.length > 0) for (const observe of this.observers) await observe(trx, scope, log);
      return value;
    };
    if (this.runner && this.cache) return this.runInBatch(scope, observed, this.cache);
    return this.runAlone(scope, observed);
  }

  /** One write in its own transaction (content-type changes; every write on PostgreSQL). */
  private async runAlone<T>(scope: WriteScope, work: Work<T>): Promise<T> {
    const cache = this.cache;
    const rows = 'type' in scope ? scope : null;
    const log = newLog(rows, cache);
    if (rows) cache?.beginWrite(rows.type, rows.onlyAdds);
    else cache?.beginWrite(SCHEMA, false);
    let committed = false;
    try {
      const result = await this.db.transaction().execute((trx) => work(trx, log));
      committed = true;
      return result;
    } finally {
      if (rows) {
        cache?.endWrite(rows.type, rows.onlyAdds, committed ? log.changes : null);
      } else {
        cache?.endWrite(SCHEMA, false, null);
        // Types are rebuilt from the registry after a schema change; everything kept is stale.
        cache?.clear();
      }
      if (committed) for (const then of log.whenKept) then();
    }
  }

  /** Queues a row write for the current or next batch. */
  private runInBatch<T>(scope: RowScope, work: Work<T>, cache: ReadCache): Promise<T> {
    const log = newLog(scope, cache);
    cache.beginWrite(scope.type, scope.onlyAdds);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ scope, work, log, outcome: null, resolve: resolve as (value: unknown) => void, reject });
      if (!this.batching) {
        this.batching = true;
        void this.runBatches();
      }
    });
  }

  /** Runs batches until no write is waiting. */
  private async runBatches(): Promise<void> {
    while (this.queue.length > 0) {
      const batch: QueuedWrite[] = [];
      let failure: { error: unknown } | null = null;
      try {
        // Holding Kysely's connection keeps its queries (queued reads, content-type changes) out
        // of the open transaction until it has committed.
        await this.db.connection().execute((connection) => this.runBatch(connection, batch));
      } catch (error) {
        failure = { error };
        // The connection could not be had at all (a closed database): the waiting writes fail too,
        // rather than being retried for ever.
        if (batch.length === 0) batch.push(...this.queue.splice(0));
      }
      this.settle(batch, failure);
      // Reads and content-type changes waiting for the connection take it before the next batch.
      if (this.queue.length > 0) await nextTurn();
    }
    this.batching = false;
  }

  /**
   * One transaction: each queued write under its own savepoint, more joining while they arrive
   * (a turn of the event loop lets requests already received reach the queue), then one commit.
   */
  private async runBatch(connection: Kysely<QuireDatabase>, batch: QueuedWrite[]): Promise<void> {
    const transaction = (this.runner as StatementRunner).transaction;
    try {
      transaction.begin();
    } catch (error) {
      // No transaction (another process held the write lock past the busy timeout, or the
      // database is closed): the writes waiting now fail with that error instead of retrying.
      batch.push(...this.queue.splice(0, MAX_BATCH));
      throw error;
    }
    try {
      for (;;) {
        while (this.queue.length > 0 && batch.length < MAX_BATCH) {
          const write = this.queue.shift() as QueuedWrite;
          batch.push(write);
          transaction.savepoint();
          try {
            write.outcome = { ok: true, value: await write.work(connection, write.log) };
            transaction.release();
            for (const then of write.log.whenKept) then();
          } catch (error) {
            write.outcome = { ok: false, error };
            // Some failures (a full disk, an I/O error) end the whole transaction: then no write
            // of this batch can commit, and all of them fail.
            if (!transaction.open) throw error;
            transaction.undo();
          }
        }
        if (batch.length >= MAX_BATCH) break;
        await nextTurn();
        if (this.queue.length === 0) break;
      }
      transaction.commit();
    } catch (error) {
      if (transaction.open) transaction.rollback();
      throw error;
    }
  }

  /** Answers a batch's writes once it has committed (or failed as a whole), in arrival order. */
  private settle(batch: readonly QueuedWrite[], failure: { error: unknown } | null): void {
    const cache = this.cache as ReadCache;
    // Slug hints learnt from the batch's writes would claim slugs that were never committed.
    if (failure && batch.some((write) => write.outcome?.ok)) cache.clear();
    for (const write of batch) {
      const { scope, log, outcome } = write;
      const committed = failure === null && outcome?.ok === true;
      // A write undone to its savepoint changed nothing; a failed batch may have changed anything
      // before its rollback, so the cache forgets the table.
      cache.endWrite(scope.type, scope.onlyAdds, failure ? null : committed ? log.changes : []);
      if (committed) {
        write.resolve(outcome.value);
      } else {
        write.reject(outcome?.ok === false ? outcome.error : failure?.error);
      }
    }
  }
}

/** The read cache's key for "the content types themselves" (no type's entries). */
const SCHEMA = {};

function newLog(rows: RowScope | null, cache: ReadCache | null): WriteLog {
  return { changes: [], gapToken: rows?.onlyAdds ? cache?.gapToken : undefined, whenKept: [] };
}

/**
 * The read cache over `runner` and the reads outside writes (see `ContentWrites.reads`): direct
 * statements while no write is under way, otherwise through Kysely, after the write commits. Null
 * without a runner. Made before the ContentWrites that keeps them when a reader of the write path
 * (the kept schedules) is one of its observers.
 */
export function committedReads(db: Kysely<QuireDatabase>, runner: StatementRunner | undefined): CommittedReads | null {
  if (!runner) return null;
  const cache = new ReadCache(() => runner.externalChangeToken());
  const queued = async (sql: string, parameters: readonly unknown[]) =>
    db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(sql, [...parameters]));
  const reads: StatementRunner = {
    all: async (sql, parameters) =>
      cache.writing ? (await queued(sql, parameters)).rows : runner.all(sql, parameters),
    run: async (sql, parameters) =>
      cache.writing ? Number((await queued(sql, parameters)).numAffectedRows ?? 0) : runner.run(sql, parameters),
    externalChangeToken: () => runner.externalChangeToken(),
    schemaChanges: runner.schemaChanges,
    transaction: runner.transaction,
    wraps: connectionRunner(runner),
  };
  return { cache, reads };
}
