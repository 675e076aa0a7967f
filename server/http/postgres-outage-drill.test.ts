// Engine: PostgreSQL only: it stops and starts PostgreSQL under the writes of two servers sharing a database of its
// own.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOutageDrill } from '../test-support/outage-drill.js';
import { expectOutageSurvived, type OutageStage, startOutageStage } from '../test-support/outage-drill-checks.js';
import {
  createTestDatabase,
  postgresForTests,
  runAdmin,
  skipNote,
  type TestDatabase,
} from '../test-support/postgres.js';
import { callApi, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';
import { privatePostgresSupport } from '../test-support/private-postgres.js';

/**
 * The kill-the-database drill: two Quire servers on one PostgreSQL database take
 * concurrent creates, updates and deletes while the database is stopped and started again, twice:
 * `pg_ctl stop -m immediate` (every backend ended at once, recovery at the next start), then
 * `-m fast`. The database is a private server made for this file: the machine's shared one serves
 * every other suite meanwhile.
 *
 * Then: every write answered 2xx is there exactly; every write answered 503 is absent (or, when the
 * answer said the COMMIT's outcome is unknown, wholly there or wholly absent); the search table
 * matches the rows; and both servers answered again without a restart. (`npm run test:stress`
 * runs more outages with more clients: postgres-outage-drill.stress.test.ts.)
 */

const support = privatePostgresSupport();
const skip = support.available ? '' : ` (skipped: ${support.reason})`;

describe.skipIf(!support.available)(`two servers while PostgreSQL is stopped and started${skip}`, () => {
  let stage: OutageStage;

  beforeAll(async () => {
    if (support.available) stage = await startOutageStage(support.binDir);
  }, 60_000);
  afterAll(async () => {
    await stage?.dispose();
  });

  it('keeps every acknowledged write, shows no half write, and serves again by itself', async () => {
    const report = await runOutageDrill({
      servers: stage.servers,
      clients: 4,
      rounds: 2,
      upMs: 1_500,
      downMs: 1_500,
      // Every backend ended at once (as a crash would, recovery at the start), then a fast shutdown.
      stopDatabase: (round) => stage.database.stop(round === 0 ? 'immediate' : 'fast'),
      startDatabase: () => stage.database.start(),
      recoveryTimeoutMs: 20_000,
    });
    await expectOutageSurvived(stage, report, 10);
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
