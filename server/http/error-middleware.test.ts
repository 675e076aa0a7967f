import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app.js';
import { openDatabase, type QuireDb } from '../db/database.js';
import { CommitOutcomeUnknownError, connectPostgres, poolConfig } from '../db/postgres/postgres-connection.js';
import { type PostgresTarget, parsePostgresUrl } from '../db/postgres/postgres-url.js';
import { postgresForTests, runAdmin, skipNote } from '../test-support/postgres.js';
import { toAppError } from './error-middleware.js';

/**
 * A database that went away is answered 503 `database_unavailable` in words of our own (never the
 * driver's, which name the host and may name the user); a statement that failed stays a 500. The
 * errors are real ones from node-postgres: a closed port, a backend ended by pg_terminate_backend.
 */

const postgres = await postgresForTests();
const credentials = /quire_secret_user|hunter2/;

/** A port on 127.0.0.1 that nothing listens on (taken from the system, then given back). */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What `run` rejects with (it must reject). */
async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A URL with credentials in it, on a port nothing listens on. */
async function closedUrl(): Promise<string> {
  return `postgres://quire_secret_user:hunter2@127.0.0.1:${await closedPort()}/site?connect_timeout=2`;
}

/** Checks the 503 for a read and for a write, and that neither names the host, port or credentials. */
function expectUnavailable(error: unknown, port?: number): void {
  const read = toAppError(error, 'GET');
  const write = toAppError(error, 'POST');
  expect(read.status).toBe(503);
  expect(read.code).toBe('database_unavailable');
  expect(read.message).toBe('The database cannot be reached right now; nothing was changed. Try again shortly');
  expect(write.status).toBe(503);
  expect(write.code).toBe('database_unavailable');
  expect(write.message).toBe('The database cannot be reached right now; the change was not saved. Try again shortly');
  for (const answer of [read, write]) {
    const body = JSON.stringify(answer.toBody());
    expect(body).not.toMatch(credentials);
    expect(body).not.toContain('127.0.0.1');
    if (port !== undefined) expect(body).not.toContain(String(port));
  }
}

describe('a database that cannot be reached', () => {
  it('is 503 database_unavailable for a client refused at connect', async () => {
    const target = parsePostgresUrl(await closedUrl());
    const client = new pg.Client(poolConfig(target));
    const error = await rejection(() => client.connect());
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
    expectUnavailable(error, target.port);
  });

  it('is 503 for a pool query that cannot connect, and for the start-up check that explains it', async () => {
    const target = parsePostgresUrl(await closedUrl());
    const pool = new pg.Pool(poolConfig(target));
    try {
      expectUnavailable(await rejection(() => pool.query('select 1')), target.port);
    } finally {
      await pool.end();
    }
    const explained = await rejection(() => connectPostgres(target, { max: 1 }));
    expect((explained as Error).message).toContain(`127.0.0.1:${target.port}`);
    expectUnavailable(explained, target.port);
  });
});

describe('a write whose connection ended during COMMIT', () => {
  it('is 503 database_unavailable saying it may or may not have been saved, as data too', () => {
    const lost = Object.assign(new Error('read ECONNRESET 127.0.0.1:5432 quire_secret_user'), { code: 'ECONNRESET' });
    const answer = toAppError(new CommitOutcomeUnknownError(lost), 'POST');
    expect(answer.status).toBe(503);
    expect(answer.toBody().error).toEqual({
      status: 503,
      code: 'database_unavailable',
      message:
        'The database went away while the change was being saved; it may or may not have been saved. Read it back before sending it again',
      detail: { code: 'outcome_unknown' },
    });
    expect(JSON.stringify(answer.toBody())).not.toMatch(/127\.0\.0\.1|quire_secret_user/);
  });
});

describe(`a backend that PostgreSQL ends${skipNote(postgres)}`, () => {
  it.skipIf(!postgres.available)(
    'is 503 for the query it ends and for the client left behind, and the next client works',
    async () => {
      if (!postgres.available) return;
      const target = postgres.target;
      const client = new pg.Client(poolConfig(target));
      client.on('error', () => {}); // the termination also arrives as an event; the query's rejection is the one tested
      await client.connect();
      const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
      // A query in flight when its backend is ended, as when the server shuts down under load.
      const inFlight = rejection(() => client.query('select pg_sleep(10)'));
      await waitUntilActive(target, pid);
      const ended = await runAdmin(target, `select pg_terminate_backend(${pid}) as ended`);
      expect(ended.rows[0].ended).toBe(true);
      const terminated = await inFlight;
      expect(['57P01', undefined]).toContain((terminated as { code?: string }).code);
      expectUnavailable(terminated);
      expectUnavailable(await rejection(() => client.query('select 1')));
      await client.end().catch(() => {});

      const fresh = new pg.Client(poolConfig(target));
      await fresh.connect();
      expect((await fresh.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      await fresh.end();
    },
  );

  it.skipIf(!postgres.available)(
    'is not 503 for a statement that failed: that is the server’s fault, 500',
    async () => {
      if (!postgres.available) return;
      const client = new pg.Client(poolConfig(postgres.target));
      await client.connect();
      try {
        const syntax = await rejection(() => client.query('selec 1'));
        expect((syntax as { code?: string }).code).toBe('42601');
        expect(toAppError(syntax, 'GET').code).toBe('internal_error');
        expect(toAppError(syntax, 'POST').status).toBe(500);
      } finally {
        await client.end();
      }
    },
  );
});

describe('SQLite errors', () => {
  it('stay 500 internal_error', () => {
    const raw = new Database(':memory:');
    try {
      let error: unknown;
      try {
        raw.prepare('selec 1');
      } catch (caught) {
        error = caught;
      }
      expect((error as { code?: string }).code).toBe('SQLITE_ERROR');
      expect(toAppError(error, 'GET').code).toBe('internal_error');
    } finally {
      raw.close();
    }
  });
});

/** Waits until the backend `pid` is running a statement, so ending it ends that statement. */
async function waitUntilActive(target: PostgresTarget, pid: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const result = await runAdmin(target, `select state from pg_stat_activity where pid = ${pid}`);
    if (result.rows[0]?.state === 'active') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`backend ${pid} never started its statement`);
}

describe('the HTTP answer when the database is gone', () => {
  let dir: string;
  let database: QuireDb;
  let server: Server;
  let origin: string;
  let refused: unknown;
  const logged: unknown[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-unavailable-'));
    database = await openDatabase(join(dir, 'content.sqlite'));
    const built = await createApp({ database, editorName: 'tester', log: (_message, error) => logged.push(error) });
    // The services fail as the PostgreSQL engine's would when its server is gone: with the error
    // node-postgres gives for a refused connection (a real one, made here).
    const port = await closedPort();
    refused = await rejection(() => new pg.Client({ host: '127.0.0.1', port, user: 'quire_secret_user' }).connect());
    const gone = () => Promise.reject(refused);
    vi.spyOn(built.services.rows, 'list').mockImplementation(gone);
    vi.spyOn(built.services.rows, 'get').mockImplementation(gone);
    vi.spyOn(built.services.rows, 'create').mockImplementation(gone);
    server = createServer({ requireHostHeader: false }, built.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The row routes answer these themselves, through the same error mapping.
  it.each([
    ['GET', '/api/cms/news', 'nothing was changed'],
    ['GET', '/api/cms/news/some-id', 'nothing was changed'],
    ['POST', '/api/cms/news', 'the change was not saved'],
  ])('%s %s is 503 database_unavailable in the JSON error shape', async (method, path, assurance) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: method === 'POST' ? JSON.stringify({ title: 'Lost', status: 'draft' }) : undefined,
    });
    const text = await response.text();
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(JSON.parse(text).error).toMatchObject({ status: 503, code: 'database_unavailable' });
    expect(JSON.parse(text).error.message).toContain(assurance);
    expect(text).not.toMatch(credentials);
    expect(text).not.toContain('ECONNREFUSED');
    // The operator's log gets the driver's error, to see why.
    expect(logged.at(-1)).toBe(refused);
  });
});
