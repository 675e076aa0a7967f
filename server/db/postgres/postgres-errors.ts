/**
 * PostgreSQL failures as data, without node-postgres: the error middleware and the commands tell
 * them apart (503 `database_unavailable`, one-line CLI messages) on every engine, while `pg` itself
 * loads only when a PostgreSQL URL is given (postgres-connection.ts, imported lazily), so a
 * SQLite server never pays for loading it.
 */

import { DatabaseUnavailableError } from '../database-errors.js';

/** Why a PostgreSQL server could not be used, for callers that branch on it. */
export type PostgresFailure =
  | 'connection_refused'
  | 'unknown_host'
  | 'unreachable'
  | 'timeout'
  | 'connection_closed'
  | 'authentication_failed'
  | 'database_missing'
  | 'not_ready'
  | 'tls'
  | 'version'
  | 'other';

/** A PostgreSQL server that cannot be used; the message is one line, naming host and port only. */
export class PostgresConnectionError extends DatabaseUnavailableError {
  readonly failure: PostgresFailure;

  constructor(failure: PostgresFailure, message: string) {
    super(message);
    this.name = 'PostgresConnectionError';
    this.failure = failure;
  }
}

/**
 * A COMMIT whose connection went away before PostgreSQL answered: the transaction may have
 * committed or not, and only reading the data back tells. (Every other failure inside a
 * transaction means it did not commit.)
 */
export class CommitOutcomeUnknownError extends Error {
  constructor(cause: unknown) {
    super('The connection to PostgreSQL ended during COMMIT; the transaction may or may not have committed', {
      cause,
    });
    this.name = 'CommitOutcomeUnknownError';
  }
}

/** Whether `error` (or one of its causes) is a COMMIT whose outcome is unknown. */
export function isCommitOutcomeUnknown(error: unknown): boolean {
  return causes(error).some((candidate) => candidate instanceof CommitOutcomeUnknownError);
}

/** Node's network errors that mean the server cannot be reached (now). */
const UNAVAILABLE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** Server codes that mean "this connection, or the server, went away", not "this statement is wrong". */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown: another backend crashed and the server is resetting
  '57P03', // cannot_connect_now: starting up, shutting down, or in recovery
  '53300', // too_many_connections: transient, and a retry later is the right answer
]);
/** node-postgres' own messages for a connection that ended or never came up. */
const UNAVAILABLE_MESSAGES = new Set([
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout expired',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);
const UNAVAILABLE_FAILURES: ReadonlySet<PostgresFailure> = new Set([
  'connection_refused',
  'unknown_host',
  'unreachable',
  'timeout',
  'connection_closed',
  'not_ready',
]);

/**
 * Whether an error means the database went away (refused, reset, terminated, shutting down, any
 * SQLSTATE class 08 connection exception) rather than that a statement failed: such a request is
 * answered 503 `database_unavailable`, and the pool reconnects once the server is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causes(error).some((candidate) => {
    if (candidate instanceof PostgresConnectionError) return UNAVAILABLE_FAILURES.has(candidate.failure);
    const code = codeOf(candidate);
    if (
      code &&
      (UNAVAILABLE_NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
    ) {
      return true;
    }
    return candidate instanceof Error && UNAVAILABLE_MESSAGES.has(candidate.message);
  });
}

/** The error, its causes, and the attempts of an AggregateError (Node tries each address of a host). */
export function causes(error: unknown): unknown[] {
  const seen: unknown[] = [];
  const queue = [error];
  while (queue.length > 0 && seen.length < 10) {
    const next = queue.shift();
    if (next === undefined || next === null || seen.includes(next)) continue;
    seen.push(next);
    if (next instanceof AggregateError) queue.push(...next.errors);
    if (next instanceof Error && next.cause !== undefined) queue.push(next.cause);
  }
  return seen;
}

/** An error's `code` (Node's network codes, PostgreSQL's SQLSTATE), when it is a string. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
