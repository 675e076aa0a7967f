import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type PostgresDialectConfig,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import { CommitOutcomeUnknownError, isDatabaseUnavailable } from './postgres-connection.js';
import { PipelinedConnection } from './postgres-pipelined-connection.js';
import { LazyConnection, SharedReads } from './postgres-shared-reads.js';

/** Kysely's PostgreSQL dialect over a pool, with Quire's driver (below). */
export class QuirePostgresDialect extends PostgresDialect {
  readonly #pool: pg.Pool;

  constructor(config: { pool: pg.Pool }) {
    super(config as PostgresDialectConfig);
    this.#pool = config.pool;
  }

  override createDriver(): Driver {
    return new QuirePostgresDriver(this.#pool);
  }
}

/**
 * Kysely's PostgreSQL driver, written again for two things its own does not do:
 *
 * - Fewer round trips: each connection is a `PipelinedConnection`, which sends BEGIN and the
 *   statements marked `sendLater` together with the next statement awaited.
 * - Reads sharing connections: a connection is handed out as a `LazyConnection`, which sends the
 *   reads marked `readAnywhere` outside a transaction down shared, pipelined connections
 *   (postgres-shared-reads.ts) and takes a pool connection of its own only for anything else.
 * - Transactions that tell what a lost connection means. A COMMIT whose connection drops (the
 *   server stopped, the network went) may or may not have committed: the server can have made it
 *   durable just before the answer was lost. Such a failure becomes a `CommitOutcomeUnknownError`,
 *   so the API says "maybe saved" instead of "not saved". Kysely rolls back after any failure
 *   inside a transaction; on a connection that is gone that rollback fails too, and its error would
 *   replace the one that ended the transaction (turning a commit whose outcome is unknown into a
 *   plain "not saved"). The server rolls back an open transaction whose connection ends, so such a
 *   rollback failure is dropped and the first error is the one thrown.
 */
export class QuirePostgresDriver implements Driver {
  readonly #connections = new WeakMap<pg.PoolClient, PipelinedConnection>();
  readonly #shared: SharedReads;
  #pool: pg.Pool | null;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
    this.#shared = new SharedReads(pool);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#pool) throw new Error('driver has already been destroyed');
    return new LazyConnection(() => this.#connect(), this.#shared);
  }

  /** A pool connection of its own (the same `PipelinedConnection` each time it is lent). */
  async #connect(): Promise<PipelinedConnection> {
    if (!this.#pool) throw new Error('driver has already been destroyed');
    const client = await this.#pool.connect();
    let connection = this.#connections.get(client);
    if (!connection) {
      connection = new PipelinedConnection(client);
      this.#connections.set(client, connection);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = [
        'start transaction',
        settings.isolationLevel && `isolation level ${settings.isolationLevel}`,
        settings.accessMode,
      ]
        .filter(Boolean)
        .join(' ');
    }
    const own = await ownOf(connection);
    if (own instanceof PipelinedConnection) own.begin(text);
    else await own.executeQuery(CompiledQuery.raw(text));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await end(connection, 'commit');
    } catch (error) {
      // A statement error at COMMIT (a deferred constraint, a statement sent later) rolled back
      // for sure: that stays as it is.
      throw isDatabaseUnavailable(error) ? new CommitOutcomeUnknownError(error) : error;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await end(connection, 'rollback');
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${identifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${identifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${identifier(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof LazyConnection) await connection.release();
    else (connection as PipelinedConnection).client.release();
  }

  async destroy(): Promise<void> {
    const pool = this.#pool;
    this.#pool = null;
    await pool?.end();
  }
}

async function end(connection: DatabaseConnection, text: 'commit' | 'rollback'): Promise<unknown> {
  const own = await ownOf(connection);
  if (own instanceof PipelinedConnection) return own.end(text);
  return own.executeQuery(CompiledQuery.raw(text));
}

/** The pool connection behind a connection Kysely was handed (taking one if it has none yet). */
function ownOf(connection: DatabaseConnection): Promise<DatabaseConnection> | DatabaseConnection {
  return connection instanceof LazyConnection ? connection.own() : connection;
}

function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
