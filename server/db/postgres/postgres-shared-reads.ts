import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import type pg from 'pg';
import { mayReadAnywhere } from '../queries/shared-reads.js';
import { isDatabaseUnavailable } from './postgres-errors.js';
import { kyselyResult, type PipelinedConnection } from './postgres-pipelined-connection.js';

/**
 * Reads sharing connections on PostgreSQL: the reads marked `readAnywhere` (shared-reads.ts) that
 * arrive together go down one pooled connection in one write, pipelined, and are answered on it in
 * the order sent, without a wait between them.
 *
 * Each read on a connection of its own costs a `writev` into the kernel, a backend woken to run
 * it, and a read of its answer; pipelined on one connection, many reads share them (and the
 * backends' CPU with them). A reader is
 * a pool connection lent while it has reads in flight and given back when it has none, so an idle
 * server holds nothing; reads join the least busy reader, and another is borrowed (up to
 * `readers`) when each has `depth` reads in flight or its oldest has waited `slowMs`, so one slow
 * read does not hold up the reads behind it for long and heavy reads still spread over backends.
 * Each read is its own statement with its own Sync: its failure is its own, and it sees what was
 * committed before it was sent, as on a connection of its own.
 */
export class SharedReads {
  readonly #readers: Reader[] = [];
  /** Readers whose socket holds reads not yet written. */
  #corked: Reader[] = [];
  #borrowing: Promise<Reader> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly limits: SharedReadLimits = SHARED_READ_LIMITS,
  ) {}

  /** Runs a read on a shared connection. */
  async execute<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const reader = this.#join() ?? (await this.#borrow());
    return this.#send<R>(reader, query);
  }

  /** How many connections are lent to shared reads now. */
  get readers(): number {
    return this.#readers.length;
  }

  /** The reader to join now, or null when one is to be borrowed (or is being). */
  #join(): Reader | null {
    let best: Reader | null = null;
    for (const reader of this.#readers) if (!best || reader.sentAt.length < best.sentAt.length) best = reader;
    if (!best || !this.#busy(best)) return best;
    if (this.#borrowing) return null;
    // Every reader is busy: another, while the pool can lend one without making the read wait.
    const { pool } = this;
    const lendsNow = pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 10);
    return this.#readers.length < this.limits.readers && lendsNow ? null : best;
  }

  #busy(reader: Reader): boolean {
    const waiting = reader.sentAt.length;
    return waiting >= this.limits.depth || (waiting > 0 && performance.now() - reader.sentAt[0] > this.limits.slowMs);
  }

  #borrow(): Promise<Reader> {
    this.#borrowing ??= this.pool
      .connect()
      .then((client) => {
        const reader: Reader = { client, sentAt: [], corked: false, gone: false };
        this.#readers.push(reader);
        return reader;
      })
      .finally(() => {
        this.#borrowing = null;
      });
    return this.#borrowing;
  }

  async #send<R>(reader: Reader, query: CompiledQuery): Promise<QueryResult<R>> {
    const stream = reader.client.connection?.stream;
    if (!reader.corked && typeof stream?.cork === 'function') {
      // Held until the reads started in this turn (the requests answered together) are all in.
      stream.cork();
      reader.corked = true;
      if (this.#corked.push(reader) === 1) process.nextTick(() => this.#flush());
    }
    reader.sentAt.push(performance.now());
    try {
      return kyselyResult<R>(await reader.client.query(query.sql, [...query.parameters]));
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.#leave(reader, error);
      throw error;
    } finally {
      // Answers come in the order sent: this was the oldest in flight.
      reader.sentAt.shift();
      if (reader.sentAt.length === 0) this.#leave(reader);
    }
  }

  #flush(): void {
    const corked = this.#corked;
    this.#corked = [];
    for (const reader of corked) {
      reader.corked = false;
      reader.client.connection?.stream.uncork();
    }
  }

  /** Gives a reader back to the pool (one that failed, to be closed). */
  #leave(reader: Reader, error?: unknown): void {
    if (reader.gone) return;
    reader.gone = true;
    this.#readers.splice(this.#readers.indexOf(reader), 1);
    reader.client.release(error instanceof Error ? error : undefined);
  }
}

/** When shared reads borrow another connection (see SharedReads). */
export interface SharedReadLimits {
  /** Most connections lent to shared reads at once. */
  readers: number;
  /** Reads in flight on a reader that make it busy. */
  depth: number;
  /** How long the oldest read in flight may have waited before its reader is busy. */
  slowMs: number;
}

/** The limits a server runs with. */
export const SHARED_READ_LIMITS: SharedReadLimits = { readers: 4, depth: 8, slowMs: 5 };

/** One pool connection lent to shared reads. */
interface Reader {
  readonly client: pg.PoolClient;
  /** When each read in flight was sent, oldest first. */
  readonly sentAt: number[];
  corked: boolean;
  /** Given back to the pool: joins nothing more. */
  gone: boolean;
}

/**
 * A connection as Kysely's driver hands it out: no pool connection of its own until a statement
 * needs one. Reads marked `readAnywhere` sent before then go to the shared readers; the first
 * other statement (or BEGIN) takes a pool connection, which then runs everything until released.
 */
export class LazyConnection implements DatabaseConnection {
  #bound: Promise<PipelinedConnection> | null = null;

  constructor(
    private readonly connect: () => Promise<PipelinedConnection>,
    private readonly shared: SharedReads,
  ) {}

  /** This connection's own pool connection, taken at the first call and kept until `release`. */
  own(): Promise<PipelinedConnection> {
    this.#bound ??= this.connect();
    return this.#bound;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#bound === null && mayReadAnywhere(query)) return this.shared.execute<R>(query);
    return (await this.own()).executeQuery<R>(query);
  }

  // biome-ignore lint/correctness/useYield: Quire streams no PostgreSQL query (its cursors are SQL's own)
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on this connection');
  }

  /** Gives its pool connection back, if it took one. */
  async release(): Promise<void> {
    const bound = await this.#bound?.catch(() => null);
    bound?.client.release();
  }
}
