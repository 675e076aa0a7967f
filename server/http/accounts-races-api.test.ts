import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { sessionCookie, sessionHeaders, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Account rules that a check and a later write must keep together, attacked with requests that
 * arrive at once: the last enabled admin stays one when two admins demote or disable each other,
 * and first run makes one admin however many ask together. Each check and its change run in one
 * exclusive transaction (AccountRepository.exclusively; across servers on PostgreSQL, see
 * postgres-accounts-races.test.ts).
 */

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.dispose()));
  servers = [];
});

/** A server with two admins, `ada` (by first run) and `bob`, each signed in. */
async function twoAdmins(): Promise<{ server: TestServer; ada: Record<string, string>; bob: Record<string, string> }> {
  const server = await startTestServer();
  servers.push(server);
  const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
  expect(first.response.status, first.text).toBe(201);
  const ada = sessionHeaders(server, sessionCookie(first.response) as string);
  const bobAdded = await request(server, 'POST', '/accounts', {
    json: { name: 'bob', role: 'admin', password: TEAM_PASSWORD },
    headers: ada,
  });
  expect(bobAdded.response.status, bobAdded.text).toBe(201);
  const signedIn = await request(server, 'POST', '/auth/sign-in', { json: { name: 'bob', password: TEAM_PASSWORD } });
  const bob = sessionHeaders(server, sessionCookie(signedIn.response) as string);
  return { server, ada, bob };
}

/** The enabled admins, as an admin token-free read of the accounts list sees them. */
async function enabledAdmins(server: TestServer, headers: Record<string, string>): Promise<string[]> {
  const { body, text, response } = await request(server, 'GET', '/accounts', { headers });
  expect(response.status, text).toBe(200);
  return (body.accounts as { name: string; role: string; disabled: boolean }[])
    .filter((account) => account.role === 'admin' && !account.disabled)
    .map((account) => account.name);
}

describe('the last enabled admin, with two admins changing each other at once', () => {
  it.each([
    ['demote', { role: 'editor' }],
    ['disable', { disabled: true }],
  ])('%s: one change wins, the other is a 409, and one admin remains', async (_name, change) => {
    const { server, ada, bob } = await twoAdmins();
    const answers = await Promise.all([
      request(server, 'PATCH', '/accounts/bob', { json: change, headers: ada }),
      request(server, 'PATCH', '/accounts/ada', { json: change, headers: bob }),
    ]);
    const texts = answers.map((answer) => answer.text).join('\n');
    // The other is refused: by the rule (409), or, when it arrives after the first's change, because
    // its sender is no longer an admin (403) or signed in (401, disabling ends sessions).
    const [won, lost] = answers[0].response.status === 200 ? answers : [answers[1], answers[0]];
    expect(won.response.status, texts).toBe(200);
    expect([401, 403, 409], texts).toContain(lost.response.status);
    if (lost.response.status === 409) expect(lost.body.error.message).toContain('is the only admin');
    const winner = won === answers[0] ? ada : bob;
    expect(await enabledAdmins(server, winner)).toHaveLength(1);
  });
});

describe('first run, asked for several times at once', () => {
  it('makes exactly one admin; the others are 409 and make nothing', async () => {
    const server = await startTestServer();
    servers.push(server);
    const names = ['ada', 'bea', 'cyd', 'dov', 'eli', 'fay'];
    const answers = await Promise.all(
      names.map((name) => request(server, 'POST', '/auth/first-run', { json: { name, password: TEAM_PASSWORD } })),
    );
    const statuses = answers.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(names.length - 1);
    const winner = answers.find((answer) => answer.response.status === 201);
    const headers = sessionHeaders(server, sessionCookie(winner?.response as Response) as string);
    const { body } = await request(server, 'GET', '/accounts', { headers });
    expect(body.accounts).toHaveLength(1);
  });
});
