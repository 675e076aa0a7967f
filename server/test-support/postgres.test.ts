import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { poolConfig } from '../db/postgres/postgres-connection.js';
import { parsePostgresUrl } from '../db/postgres/postgres-url.js';
import {
  createTestDatabase,
  DEFAULT_TEST_PG_URL,
  databaseExists,
  isCi,
  postgresForTests,
  skipNote,
  testPgUrl,
  useTestDatabase,
} from './postgres.js';

const postgres = await postgresForTests();

/** A port on 127.0.0.1 that nothing listens on (taken from the system, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('where the PostgreSQL tests run', () => {
  it('uses QUIRE_TEST_PG_URL, else the local server as postgres', () => {
    expect(testPgUrl({})).toBe(DEFAULT_TEST_PG_URL);
    expect(testPgUrl({ QUIRE_TEST_PG_URL: ' postgres://ci@db:5433/admin ' })).toBe('postgres://ci@db:5433/admin');
    expect(testPgUrl({ QUIRE_TEST_PG_URL: '' })).toBe(DEFAULT_TEST_PG_URL);
  });

  it('counts CI=true (and CI=1) as CI', () => {
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: '1' })).toBe(true);
    expect(isCi({ CI: 'false' })).toBe(false);
    expect(isCi({})).toBe(false);
  });

  it('skips with a one-line reason when no server answers, off CI', async () => {
    const port = await closedPort();
    const missing = await postgresForTests({
      QUIRE_TEST_PG_URL: `postgres://postgres:hunter2@127.0.0.1:${port}/postgres`,
    });
    expect(missing.available).toBe(false);
    expect(missing.skipReason).toBe(
      `no PostgreSQL: Cannot reach PostgreSQL at 127.0.0.1:${port} (connection refused); set QUIRE_TEST_PG_URL to use another`,
    );
    expect(skipNote(missing)).toBe(` (skipped: ${missing.skipReason})`);
    expect(missing.skipReason).not.toContain('hunter2');
  });

  it('fails instead of skipping on CI (CI=true) when no server answers', async () => {
    const port = await closedPort();
    await expect(
      postgresForTests({ CI: 'true', QUIRE_TEST_PG_URL: `postgres://postgres@127.0.0.1:${port}/postgres` }),
    ).rejects.toThrow(
      `PostgreSQL is required on CI (CI=true) and is not usable: Cannot reach PostgreSQL at 127.0.0.1:${port} (connection refused)`,
    );
  });

  it('fails on CI for a QUIRE_TEST_PG_URL that is not a PostgreSQL URL, too', async () => {
    await expect(postgresForTests({ CI: 'true', QUIRE_TEST_PG_URL: 'mysql://db/site' })).rejects.toThrow(
      'PostgreSQL is required on CI (CI=true) and is not usable: A PostgreSQL URL starts with postgres://',
    );
  });
});

describe.skipIf(!postgres.available)(`throwaway test databases${skipNote(postgres)}`, () => {
  const admin = () => parsePostgresUrl(postgres.url);

  it('makes an empty quire_test_ database one can connect to, and drops it', async () => {
    const database = await createTestDatabase(postgres.url);
    try {
      expect(database.name).toMatch(/^quire_test_[0-9a-f]{12}$/);
      expect(await databaseExists(admin(), database.name)).toBe(true);
      const client = new pg.Client(poolConfig(parsePostgresUrl(database.url)));
      await client.connect();
      const { rows } = await client.query(
        "select current_database() as name, count(*)::int as tables from pg_tables where schemaname = 'public'",
      );
      await client.end();
      expect(rows).toEqual([{ name: database.name, tables: 0 }]);
    } finally {
      await database.drop();
    }
    expect(await databaseExists(admin(), database.name)).toBe(false);
  });

  it('drops a database that still has connections open on it', async () => {
    const database = await createTestDatabase(postgres.url);
    const client = new pg.Client(poolConfig(database.target));
    client.on('error', () => {}); // the forced drop ends this connection, as intended
    await client.connect();
    await database.drop();
    expect(await databaseExists(admin(), database.name)).toBe(false);
    await client.end().catch(() => {});
  });

  it('gives every database its own name', async () => {
    const [first, second] = await Promise.all([createTestDatabase(postgres.url), createTestDatabase(postgres.url)]);
    try {
      expect(first.name).not.toBe(second.name);
    } finally {
      await Promise.all([first.drop(), second.drop()]);
    }
  });

  describe('useTestDatabase', () => {
    const database = useTestDatabase(postgres.url);

    it('has made the database before the tests', async () => {
      expect(await databaseExists(admin(), database().name)).toBe(true);
    });
  });
});
