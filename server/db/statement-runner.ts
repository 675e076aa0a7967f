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
}
