import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SignInLimits } from './accounts/sign-in-limiter.js';
import type { TwoFactorOptions } from './accounts/two-factor-service.js';
import { type AppOptions, createApp } from './app.js';
import type { AuditOptions } from './audit/audit-service.js';
import { BackupSchedule } from './backup/backup-service.js';
import type { ChangeFeedOptions } from './changes/change-feed-service.js';
import type { PostgresTarget } from './db/database.js';
import { openDatabaseAt, type QuireDb } from './db/database.js';
import type { HookOptions } from './hooks/hook-service.js';
import { clientErrorResponse } from './http/error-middleware.js';
import { securityFor } from './http/localhost-guards.js';
import type { Services } from './http/services.js';
import type { RevisionOptions } from './revisions/revision-service.js';
import type { SchedulerOptions } from './schedule/schedule-service.js';

/** How to start a Quire server. */
export interface ServerOptions {
  /** The SQLite database file (ignored when `postgres` is given). */
  dbFile: string;
  /** A PostgreSQL database to serve instead of the file (`--database`, `QUIRE_DATABASE_URL`). */
  postgres?: PostgresTarget | null;
  port: number;
  host: string;
  editorName: string | null;
  editorDir?: string | null;
  bodyLimit?: number;
  /** Largest uploaded file in bytes (`--upload-limit`). */
  uploadLimit?: number;
  /** The image pipeline's sizes, metadata stripping and limits; see AppOptions.images. */
  images?: AppOptions['images'];
  log?: (message: string, error: unknown) => void;
  /** better-sqlite3 addon for a non-Node runtime (Electron); see `SqliteOptions`. */
  nativeBinding?: string;
  /**
   * Rows from which a table's search index is saved at a clean stop and read back at the next
   * start (default SNAPSHOT_MIN_ROWS; tests lower it). See OpenSqliteOptions.savedSearchIndexes.
   */
  searchIndexMinRows?: number;
  /**
   * On PostgreSQL, the folder where search indexes are saved at a clean stop (QuireConfig's
   * `searchIndexDir`; tests give their own); without it they are not saved. See
   * OpenPostgresOptions.savedSearchIndexes.
   */
  searchIndexDir?: string;
  /** Hostnames to serve besides loopback ones (`--allow-host`). */
  allowedHosts?: string[];
  /** Origins allowed to read the API cross-origin (`--cors-origin`), normalized. */
  corsOrigins?: string[];
  /**
   * API token required on every API request. Listening beyond loopback always requires one: when
   * not given, one is generated (see `RunningServer.token`).
   */
  token?: string | null;
  /**
   * Backups at start and then daily in `backups/` beside the database (on PostgreSQL in `dir`, by
   * default `backups/` in the app-data folder); `false` turns them off.
   */
  backups?: false | { intervalMs?: number; keep?: number; dir?: string };
  /** How long a sign-in session lasts without use (default: QUIRE_SESSION_HOURS, else 12 hours). */
  sessionIdleMs?: number;
  /** Failed sign-ins per address and per name before slowing and refusing (tests pass small ones). */
  signInLimits?: Partial<SignInLimits>;
  /** Reverse proxies whose X-Forwarded-For is believed (`--trust-proxy`); see AppOptions.trustProxy. */
  trustProxy?: readonly string[];
  /** Who must enrol in two-factor sign-in (`--require-2fa`), and its clock; see AppOptions.twoFactor. */
  twoFactor?: TwoFactorOptions;
  /** Revisions kept per row (`--keep-revisions`), the trash's retention (`--trash-days`), the clock. */
  revisions?: RevisionOptions;
  /** The scheduler's clock and poll (tests move the clock and call `services.schedules.runDue`). */
  scheduler?: SchedulerOptions;
  /** Build hooks' clock, debounce, retries and timeouts. */
  hooks?: HookOptions;
  /** The audit log's retention (`--audit-days`) and clock. */
  audit?: AuditOptions;
  /** The change feed's retention (`--changes-days`) and clock; see AppOptions.changes. */
  changes?: ChangeFeedOptions;
  /** Event streams' limits and heartbeat; see AppOptions.events. */
  events?: AppOptions['events'];
  /** Single sign-on, password sign-in and the public URL: see the AppOptions of the same names. */
  singleSignOn?: AppOptions['singleSignOn'];
  passwordSignIn?: boolean;
  publicUrl?: string | null;
  /** Runs once the services are ready and before the server listens (`--demo` adds its rows here). */
  beforeListen?: (services: Services) => Promise<void>;
}

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4780`. */
  origin: string;
  port: number;
  host: string;
  database: QuireDb;
  services: Services;
  /** The API token requests must carry, or null when none is required (loopback without --token). */
  token: string | null;
  /** The scheduled backups, or null when turned off. */
  backups: BackupSchedule | null;
  /** Stops accepting requests, ends open connections and closes the database. */
  close(): Promise<void>;
}

/** The scheduled backups of the served database, or null (turned off, or an in-memory database). */
function backupScheduleOf(
  database: QuireDb,
  options: ServerOptions,
  log: (message: string, error: unknown) => void,
): BackupSchedule | null {
  if (options.backups === false) return null;
  const { intervalMs, keep, dir } = options.backups ?? {};
  const job = database.backupJob({ keep, dir });
  return job ? new BackupSchedule({ job, intervalMs, log }) : null;
}

/** Opens the database and starts listening; resolves once requests can be served. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const security = securityFor(options.host, options);
  const log = options.log ?? ((message: string, error: unknown) => console.error(message, error));

  const minRows = options.searchIndexMinRows === undefined ? {} : { minRows: options.searchIndexMinRows };
  const notSaved = (error: unknown) =>
    log(
      'The search index was not saved (the next start builds it again):',
      error instanceof Error ? error.message : error,
    );
  const notRead = (table: string, reason: string) =>
    log('The saved search index was not used (the first search waits for it to be built):', `${table}: ${reason}`);
  const database = await openDatabaseAt(
    { dbFile: options.dbFile, postgres: options.postgres },
    {
      postgres:
        options.searchIndexDir === undefined
          ? {}
          : {
              savedSearchIndexes: {
                folder: options.searchIndexDir,
                ...minRows,
                onFailure: notSaved,
                onUnused: notRead,
              },
            },
      sqlite: {
        nativeBinding: options.nativeBinding,
        checkpointWorker: {
          onFailure: (error) =>
            log(
              'WAL checkpoints stay on the server thread; their worker failed:',
              error instanceof Error ? error.message : error,
            ),
        },
        savedSearchIndexes: {
          ...minRows,
          onFailure: notSaved,
          onUnused: notRead,
        },
      },
    },
  );
  let server: Server;
  let services: Services;
  try {
    const built = await createApp({
      database,
      editorName: options.editorName,
      editorDir: options.editorDir,
      bodyLimit: options.bodyLimit,
      uploadLimit: options.uploadLimit,
      images: options.images,
      log,
      security,
      sessionIdleMs: options.sessionIdleMs,
      signInLimits: options.signInLimits,
      trustProxy: options.trustProxy,
      twoFactor: options.twoFactor,
      revisions: options.revisions,
      scheduler: options.scheduler,
      hooks: options.hooks,
      audit: options.audit,
      changes: options.changes,
      events: options.events,
      singleSignOn: options.singleSignOn,
      passwordSignIn: options.passwordSignIn,
      publicUrl: options.publicUrl,
    });
    services = built.services;
    await options.beforeListen?.(services);
    // Host is checked (and a missing one refused in the JSON error shape) by the host guard.
    server = createServer({ requireHostHeader: false }, built.listener);
    server.keepAliveTimeout = 5_000;
    // Requests Node's parser refuses never reach Express: answer them in the same JSON shape.
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      // Timeouts and resets: the client is gone or silent, so there is no one to answer. Once a
      // response has begun on this socket, another would corrupt the stream (Node's own handler
      // makes the same check).
      const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
      if (!error.code?.startsWith('HPE_') || !socket.writable || inFlight?.headersSent) {
        socket.destroy();
        return;
      }
      // Bytes after a `Connection: close` request (a GET with an unframed body, say): they are
      // ignored; that request's answer is coming, and the socket closes after it.
      if (error.code === 'HPE_CLOSED_CONNECTION') {
        if (!inFlight) socket.end();
        return;
      }
      socket.end(clientErrorResponse(error));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  // The trash past its retention is purged now and then hourly.
  await services.revisions.start(log);
  // So is the audit log past its retention.
  await services.audit.start(log);
  // And the change feed past its retention.
  await services.changes.start(log);
  // Events a stopped server left in the outbox go out now; changes that fell due meanwhile are made.
  await services.hooks.start(log, !database.sharedByServers, server.address());
  await services.schedules.start(log);
  const backups = backupScheduleOf(database, options, log);
  backups?.start();
  // Requests are answered meanwhile; once this resolves, the server holds every file it will hold.
  await database.ready;
  const { port } = server.address() as AddressInfo;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  return {
    origin: `http://${hostInUrl}:${port}`,
    port,
    host: options.host,
    database,
    services,
    token: security.token,
    backups,
    close() {
      closing ??= new Promise<void>((resolve) => {
        // Event streams never finish by themselves: they end now, so the server can close.
        services.events.close();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests in flight get a moment to finish; then their sockets are ended.
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      })
        .then(() => services.revisions.stop())
        .then(() => services.audit.stop())
        .then(() => services.changes.stop())
        .then(() => services.schedules.stop())
        .then(() => services.hooks.stop())
        .then(() => backups?.stop())
        .then(() => services.images.stop())
        // Before the database closes and saves its search indexes (sqlite-search-snapshot.ts).
        .then(() => services.rows.searchFlushes.flushNow())
        .then(() => database.close());
      return closing;
    },
  };
}
