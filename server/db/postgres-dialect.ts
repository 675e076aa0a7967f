import {
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
} from 'kysely';
import { CommitOutcomeUnknownError, isDatabaseUnavailable } from './postgres-connection.js';

/**
 * Kysely's PostgreSQL dialect, with transactions that tell what a lost connection means:
 *
 * - A COMMIT whose connection drops (the server stopped, the network went) may or may not have
 *   committed: the server can have made it durable just before the answer was lost. Such a failure
 *   becomes a `CommitOutcomeUnknownError`, so the API says "maybe saved" instead of "not saved".
 * - Kysely rolls back after any failure inside a transaction; on a connection that is gone that
 *   rollback fails too, and its error would replace the one that ended the transaction (turning a
 *   commit whose outcome is unknown into a plain "not saved"). The server rolls back an open
 *   transaction whose connection ends, so such a rollback failure is dropped and the first error is
 *   the one thrown.
 */
export class QuirePostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;

  constructor(config: PostgresDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new CommitAwarePostgresDriver(this.#config);
  }
}

/** Kysely's PostgreSQL driver with the transaction endings described above. */
export class CommitAwarePostgresDriver extends PostgresDriver {
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } catch (error) {
      // A statement error at COMMIT (a deferred constraint) rolled back for sure: that stays as it is.
      throw isDatabaseUnavailable(error) ? new CommitOutcomeUnknownError(error) : error;
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
    }
  }
}
