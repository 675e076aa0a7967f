// Engine: PostgreSQL only: two servers on one PostgreSQL database of its own race the account rules (a SQLite file has
// one writer).

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolConfig } from '../db/postgres/postgres-connection.js';
import {
  postgresForTests,
  runAdmin,
  skipNote,
  untilSessionsWaitOnLocks,
  useTestDatabase,
} from '../test-support/postgres.js';
import { type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';
import { TEAM_PASSWORD } from '../test-support/team-fixture.js';

/**
 * Two servers on one PostgreSQL database keep the account rules whose check and write must hold
 * together: first run makes one admin, and the last enabled
 * admin stays one. Each statement there sees other transactions' commits, so without a lock two
 * servers could each check, see the other's state, and both write.
 *
 * "At once" is made certain: the test holds an exclusive lock on the accounts table (reads go on,
 * writes wait) until both requests are waiting on a lock, then lets go.
 */

const postgres = await postgresForTests();

/** A JSON request to a server, with its session cookie when given; the status, body and cookie. */
async function call(server: PostgresTestServer, method: string, path: string, json: unknown, cookie?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cookie) Object.assign(headers, { cookie, origin: server.origin, 'sec-fetch-site': 'same-origin' });
  const response = await fetch(`${server.api}${path}`, { method, headers, body: JSON.stringify(json) });
  const cookieSet = /quire_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  const body: any = await response.json();
  return { status: response.status, body, cookie: cookieSet && `quire_session=${cookieSet}` };
}

describe.skipIf(!postgres.available)(`account rules across two servers at once${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let a: PostgresTestServer;
  let b: PostgresTestServer;

  beforeAll(async () => {
    a = await startPostgresTestServer(database().target);
    b = await startPostgresTestServer(database().target);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  /** Runs `requests` while the accounts table is locked, letting go once both wait on a lock. */
  async function atOnce<T>(requests: () => Promise<T>[]): Promise<T[]> {
    const holder = new pg.Client(poolConfig(database().target));
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table quire_accounts in exclusive mode');
      const pending = requests();
      await untilSessionsWaitOnLocks(holder, 2);
      await holder.query('rollback');
      return await Promise.all(pending);
    } finally {
      await holder.end();
    }
  }

  it('first run on both servers at once makes one admin', async () => {
    const answers = await atOnce(() => [
      call(a, 'POST', '/auth/first-run', { name: 'ada', password: TEAM_PASSWORD }),
      call(b, 'POST', '/auth/first-run', { name: 'bob', password: TEAM_PASSWORD }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect((await runAdmin(database().target, 'select name from quire_accounts')).rows).toHaveLength(1);
  });

  it('two admins demoting each other through two servers at once: one admin remains', async () => {
    // The first test's admin adds the other one; each signs in on their own server.
    const adminName = (await runAdmin(database().target, 'select name from quire_accounts')).rows[0].name as string;
    const other = adminName === 'ada' ? 'bob' : 'ada';
    const first = await call(a, 'POST', '/auth/sign-in', { name: adminName, password: TEAM_PASSWORD });
    expect(first.status).toBe(200);
    const added = await call(
      a,
      'POST',
      '/accounts',
      { name: other, role: 'admin', password: TEAM_PASSWORD },
      first.cookie,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const second = await call(b, 'POST', '/auth/sign-in', { name: other, password: TEAM_PASSWORD });
    expect(second.status).toBe(200);

    const answers = await atOnce(() => [
      call(a, 'PATCH', `/accounts/${other}`, { role: 'editor' }, first.cookie),
      call(b, 'PATCH', `/accounts/${adminName}`, { role: 'editor' }, second.cookie),
    ]);
    expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers)).toEqual([200, 409]);
    const lost = answers.find((answer) => answer.status === 409);
    expect(lost?.body.error.message).toContain('is the only admin');
    const admins = await runAdmin(
      database().target,
      "select name from quire_accounts where role = 'admin' and disabled = 0",
    );
    expect(admins.rows).toHaveLength(1);
  });
});
