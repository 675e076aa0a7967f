import type pg from 'pg';
import { pgModule } from './pg-loader.js';
import { causes, codeOf, PostgresConnectionError, type PostgresFailure } from './postgres-errors.js';
import { CONNECTION_LIFETIME_S } from './postgres-statement-names.js';
import { describeHost, type PostgresTarget } from './postgres-url.js';

export {
  CommitOutcomeUnknownError,
  isCommitOutcomeUnknown,
  isDatabaseUnavailable,
  PostgresConnectionError,
  type PostgresFailure,
} from './postgres-errors.js';

/**
 * Opening a pool of connections to PostgreSQL and saying, in one line without credentials, why it
 * could not be used. The server's own messages are never passed on: several of them name the user
 * (`password authentication failed for user "…"`), so every failure is told from its code.
 */

/** The oldest PostgreSQL Quire runs on, as `server_version_num` counts (15.0). */
export const MINIMUM_SERVER_VERSION_NUM = 150_000;

/** How a pool is sized and what it does with errors no request is waiting for. */
export interface PostgresPoolOptions {
  /** Connections at most (node-postgres' default is 10). */
  max?: number;
  /** How long a connection attempt may take when the URL has no `connect_timeout`. */
  connectTimeoutMs?: number;
  /** Told (with a credential-free description) when an idle connection fails, e.g. the server restarts. */
  onIdleError?: (description: string) => void;
}

/** A pool whose server answered and is new enough. */
export interface PostgresConnection {
  pool: pg.Pool;
  /** The server's `server_version`, e.g. `15.20 (Debian 15.20-0+deb12u1)`. */
  serverVersion: string;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** The node-postgres settings for a target (built field by field: pg's own URL reading differs from libpq's). */
export function poolConfig(target: PostgresTarget, options: PostgresPoolOptions = {}): pg.PoolConfig {
  const ssl: pg.PoolConfig['ssl'] =
    target.sslMode === 'disable'
      ? false
      : target.sslMode === 'require'
        ? { rejectUnauthorized: false }
        : target.sslMode === 'verify-ca'
          ? { rejectUnauthorized: true, checkServerIdentity: () => undefined }
          : { rejectUnauthorized: true };
  return {
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    password: target.password,
    ssl,
    application_name: target.applicationName ?? 'quire',
    // pg waits forever by default: a firewall that drops packets would hang the start.
    connectionTimeoutMillis: connectTimeoutMs(target, options),
    // A server that vanished without closing its sockets is noticed instead of waited on.
    keepAlive: true,
    max: options.max,
    // Its named statements go with it (postgres-statement-names.ts).
    maxLifetimeSeconds: CONNECTION_LIFETIME_S,
    // Statements are sent without waiting for the answers before them (postgres-pipelined-connection.ts).
    pipeline: true,
  };
}

/**
 * A pool on the target, not yet connected. An idle connection that fails (the server restarted)
 * would otherwise be an unhandled 'error' event, which ends the process; the pool drops it and the
 * next query opens a new one.
 *
 * A connection that fails while lent out (Kysely holds one for a whole transaction) is the same
 * danger: node-postgres hands the error to the waiting query and also emits it on the client, where
 * the pool stops listening while the client is lent. Each client therefore gets a listener of its
 * own that ignores it: the query's caller (or the next query, refused as not queryable) tells
 * the request, and the pool drops the client when it comes back unusable.
 */
export function openPostgresPool(target: PostgresTarget, options: PostgresPoolOptions = {}): pg.Pool {
  const pool = new pgModule.Pool(poolConfig(target, options));
  pool.on('error', (error) => options.onIdleError?.(explainPostgresError(error, target, options).message));
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * Checks, before anything is served, that the server answers and is PostgreSQL 15 or newer, then
 * opens the pool. Throws a `PostgresConnectionError` whose message is the one line to show, e.g.
 * `Cannot reach PostgreSQL at db.example:5432 (connection refused)`; no connection is left open then.
 */
export async function connectPostgres(
  target: PostgresTarget,
  options: PostgresPoolOptions = {},
): Promise<PostgresConnection> {
  // The check runs on a client of its own rather than the pool's: a pool forgets a connection that
  // failed on the client's side (no password to give) without closing it, and the server then
  // keeps that half-open login for its authentication_timeout, a minute by default.
  const probe = new pgModule.Client(poolConfig(target, options));
  probe.on('error', () => {}); // a late socket error after a failed connect; the failure is already told
  let row: { num: string; text: string };
  try {
    await probe.connect();
    const result = await probe.query<{ num: string; text: string }>(
      "select current_setting('server_version_num') as num, current_setting('server_version') as text",
    );
    row = result.rows[0];
  } catch (error) {
    throw explainPostgresError(error, target, options);
  } finally {
    await endQuietly(probe);
  }
  checkServerVersion(Number(row.num), row.text, target);
  return { pool: openPostgresPool(target, options), serverVersion: row.text };
}

/** Throws a `PostgresConnectionError` unless `versionNum` (`server_version_num`) is 15 or newer. */
export function checkServerVersion(versionNum: number, versionText: string, target: PostgresTarget): void {
  if (Number.isFinite(versionNum) && versionNum >= MINIMUM_SERVER_VERSION_NUM) return;
  const version = versionText.split(' ')[0] || 'unknown';
  throw new PostgresConnectionError(
    'version',
    `PostgreSQL at ${describeHost(target)} is version ${version}; Quire needs PostgreSQL 15 or newer`,
  );
}

/**
 * Any error from connecting or querying as a `PostgresConnectionError` with one credential-free
 * line: `Cannot reach PostgreSQL at HOST:PORT (REASON)`.
 */
export function explainPostgresError(
  error: unknown,
  target: PostgresTarget,
  options: PostgresPoolOptions = {},
): PostgresConnectionError {
  if (error instanceof PostgresConnectionError) return error;
  const [failure, reason] = classify(error, target, options);
  return new PostgresConnectionError(failure, `Cannot reach PostgreSQL at ${describeHost(target)} (${reason})`);
}

/** Closes a client whatever state it is in, waiting a second at most for the server to see it go. */
async function endQuietly(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.end().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 1_000);
    }),
  ]);
  clearTimeout(timer);
}

function connectTimeoutMs(target: PostgresTarget, options: PostgresPoolOptions): number {
  return target.connectTimeoutSeconds !== undefined
    ? target.connectTimeoutSeconds * 1000
    : (options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
}

/** The failure and the words for it; never the server's message, which may name the user. */
function classify(error: unknown, target: PostgresTarget, options: PostgresPoolOptions): [PostgresFailure, string] {
  const list = causes(error);
  const code = list.map(codeOf).find((each) => each !== undefined);
  const message = list.map((each) => (each instanceof Error ? each.message : '')).find(Boolean) ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return ['connection_refused', 'connection refused'];
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return ['unknown_host', 'unknown host'];
    case 'EHOSTUNREACH':
    case 'EHOSTDOWN':
      return ['unreachable', 'host unreachable'];
    case 'ENETUNREACH':
      return ['unreachable', 'network unreachable'];
    case 'ETIMEDOUT':
      return ['timeout', 'timeout'];
    case 'ECONNRESET':
    case 'EPIPE':
      return ['connection_closed', 'connection reset by the server'];
    case 'ENOENT':
      return ['connection_refused', 'no server socket there'];
    case 'EACCES':
      return ['connection_refused', 'permission denied on the server socket'];
    case '28P01':
      return ['authentication_failed', 'authentication failed'];
    case '28000':
      return ['authentication_failed', 'authentication failed: no such role, or it may not connect from here'];
    case '3D000':
      return ['database_missing', `database "${target.database}" does not exist`];
    case '42501':
      return ['authentication_failed', `no permission to connect to database "${target.database}"`];
    case '57P03':
      return ['not_ready', 'the server is starting up or shutting down'];
    case '53300':
      return ['not_ready', 'too many connections'];
  }
  if (message === 'timeout expired' || /connection timeout|timeout exceeded/.test(message)) {
    return ['timeout', `timeout after ${connectTimeoutMs(target, options) / 1000}s`];
  }
  if (message.startsWith('Connection terminated')) {
    return ['connection_closed', 'the server closed the connection; is it PostgreSQL?'];
  }
  if (message.includes('client password must be a string') || message.includes('client password must be a non-empty')) {
    return ['authentication_failed', 'authentication failed: the server asks for a password and the URL has none'];
  }
  if (message === 'The server does not support SSL connections') {
    return ['tls', 'the server does not support SSL; sslmode=disable connects without it'];
  }
  if (code && /CERT|SSL|TLS/.test(code)) return ['tls', `TLS certificate not accepted: ${code}`];
  if (code && /^[0-9A-Z]{5}$/.test(code)) return ['other', `server error ${code}`];
  if (code && /^E[A-Z_]+$/.test(code)) return ['other', code];
  return ['other', 'unexpected error'];
}
