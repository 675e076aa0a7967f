import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openPostgresDatabase, type PostgresQuireDb } from '../db/database.js';
import { connectPostgres, poolConfig } from '../db/postgres/postgres-connection.js';
import { type PostgresTarget, parsePostgresUrl } from '../db/postgres/postgres-url.js';

/**
 * The PostgreSQL server the tests use and the throwaway databases they make on it. Suites ask
 * `postgresForTests()` first: without a server they skip, saying why in their name, except on CI
 * (`CI=true`), where a missing PostgreSQL fails the run instead of quietly testing less.
 */

/** The server (and database to administer it from) when `QUIRE_TEST_PG_URL` names none. */
export const DEFAULT_TEST_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Every throwaway database's name starts so, and so do leftovers from a run that was killed. */
export const TEST_DATABASE_PREFIX = 'quire_test_';

/** Whether PostgreSQL suites can run here: the server to use, or the one-line reason they cannot. */
export type PostgresForTests =
  | { available: true; url: string; target: PostgresTarget; skipReason: null }
  | { available: false; url: string; skipReason: string };

/** A database made for one test file. */
export interface TestDatabase {
  name: string;
  /** Its URL, as `--database` or `QUIRE_DATABASE_URL` would take it. */
  url: string;
  target: PostgresTarget;
  /** Drops it, closing any connection still open on it. */
  drop(): Promise<void>;
}

/** The URL of the test server: `QUIRE_TEST_PG_URL`, else the local default. */
export function testPgUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.QUIRE_TEST_PG_URL?.trim() || DEFAULT_TEST_PG_URL;
}

/** Whether `env` is a CI run, where a missing PostgreSQL is a failure. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(true|1)$/i.test(env.CI ?? '');
}

/**
 * Checks once whether the test server answers (and is PostgreSQL 15 or newer). Not available: the
 * reason, or on CI a rejection with it, which fails the test file that asked.
 */
export async function postgresForTests(env: NodeJS.ProcessEnv = process.env): Promise<PostgresForTests> {
  const url = testPgUrl(env);
  let reason: string;
  try {
    const target = parsePostgresUrl(url);
    const { pool } = await connectPostgres(target, { max: 1, connectTimeoutMs: 5_000 });
    await pool.end();
    return { available: true, url, target, skipReason: null };
  } catch (error) {
    reason = (error as Error).message;
  }
  if (isCi(env)) {
    throw new Error(`PostgreSQL is required on CI (CI=true) and is not usable: ${reason} (QUIRE_TEST_PG_URL)`);
  }
  return { available: false, url, skipReason: `no PostgreSQL: ${reason}; set QUIRE_TEST_PG_URL to use another` };
}

/** ` (skipped: REASON)` for a suite's name when PostgreSQL is missing, else nothing. */
export function skipNote(postgres: PostgresForTests): string {
  return postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : '';
}

/**
 * Makes a database `quire_test_<random>` on the server `adminUrl` names (its own database is only
 * for admin): empty, or a copy of the database `template` (which nobody may be connected to).
 */
export async function createTestDatabase(adminUrl: string = testPgUrl(), template?: string): Promise<TestDatabase> {
  const admin = parsePostgresUrl(adminUrl);
  const name = `${TEST_DATABASE_PREFIX}${randomBytes(6).toString('hex')}`;
  const copy = template === undefined ? '' : ` template ${quoteIdentifier(template)}`;
  await runAdmin(admin, `create database ${quoteIdentifier(name)}${copy}`);
  const url = new URL(adminUrl.trim());
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    target: { ...admin, database: name },
    async drop() {
      if (dropped) return;
      dropped = true;
      // FORCE: a pool the test forgot to close must not keep the database (and the run) alive.
      await runAdmin(admin, `drop database if exists ${quoteIdentifier(name)} with (force)`);
    },
  };
}

/**
 * A fresh database for the calling test file: made before its tests, dropped after them. Read
 * `database()` inside tests and hooks (it does not exist before `beforeAll` has run).
 */
export function useTestDatabase(adminUrl: string = testPgUrl()): () => TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase(adminUrl);
  });
  afterAll(async () => {
    await current?.drop();
  });
  return () => {
    if (!current) throw new Error('The test database exists only once beforeAll has run');
    return current;
  };
}

/**
 * A throwaway database (see `useTestDatabase`) opened and migrated by Quire before the file's tests
 * and closed after them, before it is dropped: call the result inside a test.
 */
export function useOpenedTestDatabase(adminUrl: string = testPgUrl()): () => PostgresQuireDb {
  const database = useTestDatabase(adminUrl);
  let quire: PostgresQuireDb | undefined;
  beforeAll(async () => {
    quire = await openPostgresDatabase(database().target);
  });
  afterAll(async () => {
    await quire?.close();
  });
  return () => {
    if (!quire) throw new Error('the test database is opened in beforeAll');
    return quire;
  };
}

/** Runs one statement on the server as its admin user (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function runAdmin(admin: PostgresTarget, statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client(poolConfig(admin, { connectTimeoutMs: 5_000 }));
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Whether a database of that name exists on the admin server. */
export async function databaseExists(admin: PostgresTarget, name: string): Promise<boolean> {
  const result = await runAdmin(admin, `select 1 from pg_database where datname = ${quoteLiteral(name)}`);
  return result.rowCount === 1;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Counts the times the pool's connections hand bytes to the kernel (each the start of a round trip),
 * from the connections it opens from now on: `writes.count`, which the caller may reset.
 */
export function countSocketWrites(pool: pg.Pool): { count: number } {
  const writes = { count: 0 };
  pool.on('connect', (client: pg.PoolClient) => {
    const socket = client.connection.stream as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ['_write', '_writev']) {
      const own = socket[method].bind(socket);
      socket[method] = (...args: unknown[]) => {
        writes.count++;
        return own(...args);
      };
    }
  });
  return writes;
}

/** How many other sessions of `client`'s database wait on a lock (to know that requests queued). */
export async function sessionsWaitingOnLocks(client: pg.Client): Promise<number> {
  const result = await client.query<{ waiting: string }>(
    `select count(*) as waiting from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
  );
  return Number(result.rows[0].waiting);
}

/**
 * Waits until at least `count` other sessions of `client`'s database wait on a lock (requests held
 * by a lock the test took); past `timeoutMs`, fails naming what each of them was doing instead, so
 * a miss under load says which request never reached the lock.
 */
export async function untilSessionsWaitOnLocks(client: pg.Client, count: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await sessionsWaitingOnLocks(client)) < count) {
    if (Date.now() > deadline) {
      const { rows } = await client.query<Record<string, unknown>>(
        `select pid, state, wait_event_type, wait_event, left(query, 120) as query from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`,
      );
      throw new Error(
        `fewer than ${count} sessions waited on a lock within ${timeoutMs} ms; sessions: ${JSON.stringify(rows)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The heap fetches of an index-only scan of `table`'s rows in id order (sequential and bitmap scans
 * turned off for it): 0 once VACUUM has marked its pages all visible, else about a row each.
 */
export async function indexWalkHeapFetches(db: Kysely<any>, table: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_bitmapscan = off`.execute(trx);
    const { rows } = await sql<{ 'QUERY PLAN': { Plan: Record<string, unknown> }[] }>`explain (analyze, format json)
      select id from ${sql.table(table)} order by id`.execute(trx);
    const plan = rows[0]['QUERY PLAN'][0].Plan;
    if (plan['Node Type'] !== 'Index Only Scan') throw new Error(`not an index-only scan: ${JSON.stringify(plan)}`);
    return Number(plan['Heap Fetches']);
  });
}
