import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, type ServerOptions, startServer } from '../server.js';

/** A Quire server on a free 127.0.0.1 port over a temporary database, for tests. */
export interface TestServer extends RunningServer {
  /** `origin + '/api'`. */
  api: string;
  dir: string;
  dbFile: string;
  /** Stops the server (keeps the database files, so a test can restart on them). */
  stop(): Promise<void>;
  /** Stops the server and deletes the temporary folder. */
  dispose(): Promise<void>;
}

/**
 * Starts a server on a temporary database. Pass `dbFile` to reopen an existing one (restart tests).
 * Unexpected server errors are collected in `errors` instead of cluttering the test output.
 */
export async function startTestServer(
  options: Partial<ServerOptions> & { dir?: string } = {},
): Promise<TestServer & { errors: unknown[] }> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'quire-test-'));
  const dbFile = options.dbFile ?? join(dir, 'content.sqlite');
  const errors: unknown[] = [];
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    editorName: 'tester',
    log: (_message, error) => errors.push(error),
    // Backups have their own tests; elsewhere they would only race the test's own requests.
    backups: false,
    ...options,
    dbFile,
  });
  return {
    ...server,
    api: `${server.origin}/api`,
    dir,
    dbFile,
    errors,
    stop: () => server.close(),
    async dispose() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
