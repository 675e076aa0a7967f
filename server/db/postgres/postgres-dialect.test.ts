import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CommitOutcomeUnknownError, isCommitOutcomeUnknown, isDatabaseUnavailable } from './postgres-connection.js';
import { QuirePostgresDriver } from './postgres-dialect.js';

/**
 * How transactions end when the connection does: the driver's COMMIT and ROLLBACK over a
 * connection that fails each statement with a chosen error (the end-to-end case, a backend ended
 * during COMMIT, is in http/postgres-outage-drill.test.ts).
 */

/** A connection whose every statement fails with `error`, recording what it was sent. */
function failingConnection(error: unknown): DatabaseConnection & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      sent.push(query.sql);
      throw error;
    },
    // biome-ignore lint/correctness/useYield: never streams; every statement fails first
    async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
      throw error;
    },
  };
}

const driver = new QuirePostgresDriver(new pg.Pool({ max: 1 }));
const terminated = new Error('Connection terminated unexpectedly');
const uniqueViolation = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });

describe('a transaction whose connection ends', () => {
  it('reports a COMMIT that lost its connection as of unknown outcome, still a database outage', async () => {
    const connection = failingConnection(terminated);
    const error = await driver.commitTransaction(connection).catch((caught: unknown) => caught);
    expect(connection.sent).toEqual(['commit']);
    expect(error).toBeInstanceOf(CommitOutcomeUnknownError);
    expect(isCommitOutcomeUnknown(error)).toBe(true);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('keeps a statement error at COMMIT (a deferred constraint) as it is: that rolled back for sure', async () => {
    const error = await driver.commitTransaction(failingConnection(uniqueViolation)).catch((caught: unknown) => caught);
    expect(error).toBe(uniqueViolation);
    expect(isCommitOutcomeUnknown(error)).toBe(false);
  });

  it('drops a ROLLBACK failure on a connection that is gone, so the error that ended the transaction is told', async () => {
    const gone = new Error('Client has encountered a connection error and is not queryable');
    await expect(driver.rollbackTransaction(failingConnection(gone))).resolves.toBeUndefined();
    await expect(driver.rollbackTransaction(failingConnection(uniqueViolation))).rejects.toBe(uniqueViolation);
  });
});
