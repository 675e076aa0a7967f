import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTextName } from '../db/internal-names.js';
import { isDatabaseUnavailable, poolConfig } from '../db/postgres-connection.js';
import type { PostgresTarget } from '../db/postgres-url.js';
import { foldForSearch } from '../db/search-folding.js';
import { DRILL_WORD, listAll, runOutageDrill } from '../test-support/outage-drill.js';
import {
  createTestDatabase,
  postgresForTests,
  runAdmin,
  skipNote,
  type TestDatabase,
} from '../test-support/postgres.js';
import { callApi, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';
import {
  type PrivatePostgres,
  privatePostgresSupport,
  startPrivatePostgres,
} from '../test-support/private-postgres.js';

/**
 * The kill-the-database drill (issue 12): two Quire servers on one PostgreSQL database take
 * concurrent creates, updates and deletes while the database is stopped and started again, twice:
 * `pg_ctl stop -m immediate` (every backend ended at once, recovery at the next start), then
 * `-m fast`. The database is a private server made for this file: the machine's shared one serves
 * every other suite meanwhile.
 *
 * Then: every write answered 2xx is there exactly; every write answered 503 is absent (or, when the
 * answer said the COMMIT's outcome is unknown, wholly there or wholly absent); the search table
 * matches the rows; and both servers answered again without a restart.
 */

const support = privatePostgresSupport();
const skip = support.available ? '' : ` (skipped: ${support.reason})`;

describe.skipIf(!support.available)(`two servers while PostgreSQL is stopped and started${skip}`, () => {
  let database: PrivatePostgres;
  let target: PostgresTarget;
  const servers: PostgresTestServer[] = [];

  beforeAll(async () => {
    if (!support.available) return;
    database = await startPrivatePostgres(support.binDir);
    await runAdmin(database.target, 'create database quire_drill');
    // A short connect timeout: a stopped server refuses at once, and nothing here should wait 10 s.
    target = { ...database.target, database: 'quire_drill', connectTimeoutSeconds: 2 };
    servers.push(await startPostgresTestServer(target), await startPostgresTestServer(target));
  }, 60_000);

  afterAll(async () => {
    // Closing a pool waits for its connections: start the database again if a failure left it down.
    await database?.start().catch(() => {});
    for (const server of servers) await server.close();
    await database?.dispose();
  });

  it('keeps every acknowledged write, shows no half write, and serves again by itself', async () => {
    const report = await runOutageDrill({
      servers,
      clients: 4,
      rounds: 2,
      upMs: 1_500,
      downMs: 1_500,
      // Every backend ended at once (as a crash would, recovery at the start), then a fast shutdown.
      stopDatabase: (round) => database.stop(round === 0 ? 'immediate' : 'fast'),
      startDatabase: () => database.start(),
      recoveryTimeoutMs: 20_000,
    });

    expect(report.unexpected, database.log()).toEqual([]);
    expect(report.mismatches).toEqual([]);
    expect(report.acknowledged).toBeGreaterThan(10);
    // Each outage was met by writes, and each was told the database is unavailable.
    for (const refused of report.refusedWhileDown) expect(refused).toBeGreaterThan(0);
    // Both servers answered after each start, without a restart.
    for (const round of report.recoveryMs) for (const ms of round) expect(ms).not.toBeNull();

    // Both servers list the same rows, and search (through the folded side table) finds each.
    expect(await listAll(servers[1])).toEqual(report.finalRows);
    for (const server of servers) {
      const search = await callApi(server, 'GET', `/cms/news?limit=0&filter=${encodeURIComponent('search=über')}`);
      expect(search.status).toBe(200);
      expect(search.body.filtered).toBe(report.finalRows.size);
    }
    await expectSearchTableMatchesRows(target, report.finalRows.size);

    // The servers logged database-unavailable failures only: no 500 along the way.
    for (const server of servers) {
      expect(server.errors.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
    }
  }, 120_000);
});

const postgres = await postgresForTests();

describe.skipIf(!postgres.available)(`a COMMIT whose connection ends${skipNote(postgres)}`, () => {
  let database: TestDatabase;
  let server: PostgresTestServer;

  beforeAll(async () => {
    if (!postgres.available) return;
    database = await createTestDatabase(postgres.url);
    server = await startPostgresTestServer(database.target);
    // A deferred trigger holds COMMIT open (for one title) long enough to end its backend there.
    await runAdmin(
      database.target,
      `create function slow_commit() returns trigger language plpgsql as $$
        begin perform pg_sleep(30); return null; end $$;
      create constraint trigger slow_commit after insert on news deferrable initially deferred
        for each row when (new.title = 'Slow commit') execute function slow_commit();`,
    );
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('is a 503 saying the outcome is unknown, and the server serves on', async () => {
    const answer = callApi(server, 'POST', '/cms/news', {
      title: 'Slow commit',
      status: 'draft',
      published_at: '2025-01-01 10:00:00',
    });
    let ended = false;
    const deadline = Date.now() + 15_000;
    while (!ended && Date.now() < deadline) {
      const result = await runAdmin(
        database.target,
        `select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and query = 'commit'`,
      );
      ended = result.rows.some((row) => row.ended === true);
      if (!ended) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(ended).toBe(true);
    const { status, body } = await answer;
    expect(status).toBe(503);
    expect(body.error).toMatchObject({
      status: 503,
      code: 'database_unavailable',
      detail: { code: 'outcome_unknown' },
    });
    expect(body.error.message).toContain('may or may not have been saved');
    // Here COMMIT never got to write its record, so the row is wholly absent; the next request is served.
    const list = await callApi(server, 'GET', '/cms/news');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(0);
  }, 40_000);
});

/** The search side table has one row per content row, holding the folded text of each search column. */
async function expectSearchTableMatchesRows(target: PostgresTarget, rowCount: number): Promise<void> {
  const side = `"${searchTextName('news')}"`;
  const client = new pg.Client(poolConfig(target));
  await client.connect();
  try {
    const rows = await client.query<{ row: Record<string, unknown>; side: Record<string, unknown> | null }>(
      `select to_jsonb(n) as row, to_jsonb(s) as side from news n left join ${side} s on s.id = n.id`,
    );
    expect(rows.rows).toHaveLength(rowCount);
    for (const { row, side } of rows.rows) {
      expect(row.title).toContain(DRILL_WORD);
      expect(side, String(row.id)).not.toBeNull();
      expect(Object.keys(side ?? {})).toContain('title');
      for (const [column, folded] of Object.entries(side ?? {})) {
        if (column === 'id') continue;
        const value = row[column];
        expect(folded, `${row.id}.${column}`).toBe(value === null ? null : foldForSearch(String(value)));
      }
    }
    const orphans = await client.query(`select s.id from ${side} s left join news n using (id) where n.id is null`);
    expect(orphans.rows).toEqual([]);
  } finally {
    await client.end();
  }
}
