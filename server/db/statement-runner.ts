import type { ChangeTokenSharing } from './queries/change-token-sharing.js';

/**
 * Runs compiled SQL on the database without going through Kysely's executor for every call (its
 * connection and plugin machinery costs more than the query on the hot read path). Queries are still
 * built and compiled by Kysely, so the SQL stays the dialect's; only execution is direct.
 * A PostgreSQL dialect would provide the same interface over its prepared statements.
 */
export interface StatementRunner {
  /** All rows of a read query. */
  all(sql: string, parameters: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** A write statement; how many rows it changed. */
  run(sql: string, parameters: readonly unknown[]): Promise<number>;
  /**
   * A number that changes whenever another connection (another process: an import, a restore) has
   * committed a change since the last call; writes of this connection do not change it.
   */
  externalChangeToken(): number;
  /**
   * Where `externalChangeToken` may be shared by the reads of requests that arrived together: the
   * server's request listener counts arrivals and opens batches on it. None where the token is
   * read every time.
   */
  readonly changeTokens?: ChangeTokenSharing;
  /**
   * How many schema statements (CREATE, ALTER, DROP) this connection has been given to run, where
   * the runner counts them (SQLite: sqlite-dialect.ts); another connection's are not counted.
   */
  readonly schemaChanges?: () => number;
  /** Transaction control on the runner's one connection (group commit: see ContentWrites). */
  readonly transaction: ConnectionTransaction;
  /**
   * The connection's own runner, when this one wraps it (ContentWrites' reads): what is kept per
   * connection (the in-memory search indexes) is kept under that one.
   */
  readonly wraps?: StatementRunner;
}

/** The connection's own runner behind `runner` (itself when it wraps none). */
export function connectionRunner(runner: StatementRunner): StatementRunner {
  return runner.wraps ?? runner;
}

/**
 * One transaction on a single connection holding many writes, each under its own savepoint, so a
 * failing write rolls back alone and the others share one commit (one sync to disk). The caller
 * holds the connection (Kysely's) for the whole transaction; every call is synchronous.
 */
export interface ConnectionTransaction {
  /** Starts the transaction, taking the write lock at once. */
  begin(): void;
  /** Starts one write's savepoint. */
  savepoint(): void;
  /** Keeps the current write's changes in the transaction. */
  release(): void;
  /** Undoes the current write's changes (and ends its savepoint); the transaction goes on. */
  undo(): void;
  /** Commits; when this returns, the changes are on disk. */
  commit(): void;
  /** Abandons the whole transaction. */
  rollback(): void;
  /** Whether a transaction is open (some failures end it on their own). */
  readonly open: boolean;
}
