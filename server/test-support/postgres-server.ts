import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostgresTarget } from '../db/postgres/postgres-url.js';
import { type RunningServer, type ServerOptions, startServer } from '../server.js';

/** A Quire server on a free 127.0.0.1 port over a PostgreSQL database, for tests. */
export interface PostgresTestServer extends RunningServer {
  /** `origin + '/api'`. */
  api: string;
  /** Unexpected server errors, collected instead of printed. */
  errors: unknown[];
}

/**
 * Starts a server on `target` (a throwaway database from `useTestDatabase`), without backups, its
 * search indexes saved (when a test has tables that large) in a folder of this test process rather
 * than the user's. The database is the caller's to drop; several servers may share it.
 */
export async function startPostgresTestServer(
  target: PostgresTarget,
  options: Partial<ServerOptions> = {},
): Promise<PostgresTestServer> {
  const errors: unknown[] = [];
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    editorName: 'tester',
    log: (_message, error) => errors.push(error),
    backups: false,
    searchIndexDir: join(tmpdir(), `quire-test-search-indexes-${process.pid}`),
    ...options,
    // Never used: the PostgreSQL target wins, and no file is made.
    dbFile: ':memory:',
    postgres: target,
  });
  return { ...server, api: `${server.origin}/api`, errors };
}

/** One JSON request to a test server's API: its status and its body parsed (null when empty). */
export async function callApi(
  server: PostgresTestServer,
  method: string,
  path: string,
  json?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.api}${path}`, {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
