import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../server.js';
import type { DatabaseTemplates } from './database-templates-setup.js';
import { createTestDatabase, postgresForTests, type TestDatabase } from './postgres.js';

/** The engines the API suites run on. */
export type TestEngine = 'sqlite' | 'postgres';

/**
 * The engine the API suites run on here: `QUIRE_TEST_ENGINE` (`sqlite` or `postgres`; the
 * `server-pg` vitest project sets `postgres`), else SQLite. Anything else is a mistake worth a
 * failure rather than a quiet SQLite run under a PostgreSQL label.
 */
export function testEngine(env: NodeJS.ProcessEnv = process.env): TestEngine {
  const chosen = env.QUIRE_TEST_ENGINE?.trim().toLowerCase() || 'sqlite';
  if (chosen === 'sqlite' || chosen === 'postgres') return chosen;
  throw new Error(`QUIRE_TEST_ENGINE is ${JSON.stringify(env.QUIRE_TEST_ENGINE)}; use sqlite or postgres`);
}

/** A Quire server on a free 127.0.0.1 port over a temporary database, for tests. */
export interface TestServer extends RunningServer {
  /** `origin + '/api'`. */
  api: string;
  /** A temporary folder of the test's own (on SQLite the database file is in it). */
  dir: string;
  /** The SQLite file; on PostgreSQL `:memory:`, which the server ignores (see `postgresDatabase`). */
  dbFile: string;
  /** The engine the server runs on. */
  engine: TestEngine;
  /** On PostgreSQL the throwaway database (dropped by `dispose`), else null. */
  postgresDatabase: TestDatabase | null;
  /** Unexpected server errors, collected instead of cluttering the test output. */
  errors: unknown[];
  /** Stops the server (keeps the database, so a test can restart on it: see `reopenOptions`). */
  stop(): Promise<void>;
  /** Stops the server and deletes the temporary folder and database. */
  dispose(): Promise<void>;
}

/** What `startTestServer` takes: server options, plus an existing folder or PostgreSQL database to reuse. */
export type TestServerOptions = Partial<ServerOptions> & {
  dir?: string;
  /** Reopens this PostgreSQL database (a restart test); it is still dropped by `dispose`. */
  postgresDatabase?: TestDatabase;
};

/**
 * Starts a server on a temporary database of the engine `testEngine()` names: a SQLite file in a
 * temporary folder, or a throwaway PostgreSQL database made for it, each a copy of the run's
 * migrated database where the project made one (database-templates-setup.ts), else migrated anew. Unexpected server errors are
 * collected in `errors`. To restart on the same database, pass `reopenOptions(server)`.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { postgresDatabase: reused, ...serverOptions } = options;
  const engine: TestEngine = reused ? 'postgres' : testEngine();
  if (engine === 'postgres' && options.dbFile !== undefined) {
    // A test that opens a file of its own (a hostile or hand-made SQLite database) tests SQLite, and
    // one that restarts on `dbFile` would quietly get a new, empty database here.
    throw new Error(
      `This test opens the SQLite file ${options.dbFile}: it is SQLite-only (restarts: pass reopenOptions(server))`,
    );
  }
  const postgresDatabase = engine === 'postgres' ? (reused ?? (await createPostgresTestDatabase())) : null;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'quire-test-'));
  const dbFile = postgresDatabase ? ':memory:' : (options.dbFile ?? join(dir, 'content.sqlite'));
  const template = templates().sqlite;
  if (!postgresDatabase && options.dbFile === undefined && template && !existsSync(dbFile)) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(template, dbFile);
  }
  const errors: unknown[] = [];
  let server: RunningServer;
  try {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      editorName: 'tester',
      log: (_message, error) => errors.push(error),
      // Backups have their own tests; elsewhere they would only race the test's own requests.
      backups: false,
      // A PostgreSQL server's saved search indexes, out of the user's app-data folder.
      searchIndexDir: join(tmpdir(), `quire-test-search-indexes-${process.pid}`),
      ...serverOptions,
      // Variants in the test's own folder: PostgreSQL servers otherwise share one per machine, where
      // a variant an earlier run made would be a cache hit.
      images: { cacheDir: join(dir, 'media-cache'), ...serverOptions.images },
      dbFile,
      postgres: postgresDatabase?.target ?? null,
    });
    // A PostgreSQL run that quietly served SQLite would pass while testing nothing new.
    if (server.database.engine.kind !== engine) {
      await server.close();
      throw new Error(`Asked for a ${engine} test server, got ${server.database.engine.kind}`);
    }
  } catch (error) {
    // A server that would not start leaves nothing behind but what the caller handed in.
    if (postgresDatabase && !reused) await postgresDatabase.drop();
    if (!options.dir) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    ...server,
    api: `${server.origin}/api`,
    dir,
    dbFile,
    engine,
    postgresDatabase,
    errors,
    stop: () => server.close(),
    async dispose() {
      await server.close();
      await postgresDatabase?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The run's migrated databases (database-templates-setup.ts), where the project made them. */
function templates(): DatabaseTemplates {
  try {
    return inject('quireDatabaseTemplates') ?? { sqlite: null, postgres: null };
  } catch {
    // Outside a test run's worker nothing was provided.
    return { sqlite: null, postgres: null };
  }
}

/** The options that start another server on the same folder and database as `server` (a restart). */
export function reopenOptions(server: TestServer): TestServerOptions {
  return server.postgresDatabase
    ? { dir: server.dir, postgresDatabase: server.postgresDatabase }
    : { dir: server.dir, dbFile: server.dbFile };
}

let probe: ReturnType<typeof postgresForTests> | undefined;

/**
 * A throwaway database on the test server. PostgreSQL runs are asked for explicitly, so a missing
 * server fails them (the `server-pg` project skips, saying why, before any suite starts).
 */
async function createPostgresTestDatabase(): Promise<TestDatabase> {
  // Asked once per test file: a suite starts many servers.
  probe ??= postgresForTests();
  const postgres = await probe;
  if (!postgres.available) throw new Error(`QUIRE_TEST_ENGINE=postgres, but ${postgres.skipReason}`);
  return createTestDatabase(postgres.url, templates().postgres ?? undefined);
}
