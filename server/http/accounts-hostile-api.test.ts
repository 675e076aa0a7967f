import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountService } from '../accounts/account-service.js';
import { createApp } from '../app.js';
import { openDatabase } from '../db/database.js';
import { AccountRepository } from '../db/repositories/account-repository.js';
import { request } from '../test-support/api-scenario.js';
import { newsBody } from '../test-support/seed.js';
import { siteState } from '../test-support/site-state.js';
import { makeTeam, sessionCookie, sessionHeaders, signIn, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Accounts under attack and over time: the single user who has no accounts, first run, guessing
 * passwords, a session cookie sent from another site, sign-out, idle expiry, disabling and
 * password resets, and no hash or token in any answer or log.
 */

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.dispose()));
  servers = [];
});
async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}

/** A sign-in from another loopback address (127.0.0.2), as a second client machine would be. */
function signInFrom(server: TestServer, localAddress: string, name: string, password: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ name, password });
    const req = httpRequest(
      `${server.api}/auth/sign-in`,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('no accounts: the single user notices nothing', () => {
  it('serves loopback without sign-in, records --editor, and offers first run', async () => {
    const server = await start();
    const created = await request(server, 'POST', '/cms/news', { json: newsBody() });
    expect(created.response.status).toBe(201);
    expect(created.body.rows[0].created_by).toBe('tester');
    const me = await request(server, 'GET', '/auth/me');
    expect(me.body).toMatchObject({
      signed_in: true,
      via: 'local',
      role: 'admin',
      accounts_exist: false,
      first_run: true,
    });
  });

  it('first run makes one admin, signs them in, and is closed from then on', async () => {
    const server = await start();
    const short = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: 'short' } });
    expect(short.response.status).toBe(400);
    const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
    expect(first.response.status).toBe(201);
    expect(first.body).toMatchObject({ signed_in: true, via: 'session', name: 'ada', role: 'admin' });
    const again = await request(server, 'POST', '/auth/first-run', { json: { name: 'eve', password: TEAM_PASSWORD } });
    expect(again.response.status).toBe(409);
    expect((await request(server, 'GET', '/cms/news')).response.status).toBe(401);
    expect((await request(server, 'GET', '/auth/me')).body).toMatchObject({ signed_in: false, first_run: false });
  });

  it('offers no first run on a server that listens beyond this machine', async () => {
    const database = await openDatabase(':memory:');
    const { listener } = await createApp({ database, editorName: 'tester', security: { loopbackOnly: false } });
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
      const me = (await (await fetch(`${api}/auth/me`)).json()) as { first_run: boolean };
      expect(me.first_run).toBe(false);
      const first = await fetch(`${api}/auth/first-run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'ada', password: TEAM_PASSWORD }),
      });
      expect(first.status).toBe(403);
      expect(await new AccountRepository(database.db).anyAccount()).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await database.close();
    }
  });

  it('keeps the run token (--token) as an admin token, before and after accounts exist', async () => {
    const token = 'a-run-token-of-some-length';
    const server = await start({ token });
    const bearer = { authorization: `Bearer ${token}` };
    expect((await request(server, 'GET', '/cms/news')).response.status).toBe(401);
    const added = await request(server, 'POST', '/accounts', {
      json: { name: 'ada', role: 'admin', password: TEAM_PASSWORD },
      headers: bearer,
    });
    expect(added.response.status).toBe(201);
    const created = await request(server, 'POST', '/cms/news', { json: newsBody(), headers: bearer });
    expect(created.body.rows[0].created_by).toBe('tester');
    expect((await request(server, 'GET', '/cms/news')).response.status).toBe(401);
  });

  it('with a run token, first run needs it; /auth/me tells a caller without it nothing of first run', async () => {
    const token = 'a-run-token-of-some-length';
    const server = await start({ token });
    const bearer = { authorization: `Bearer ${token}` };
    const stranger = await request(server, 'GET', '/auth/me');
    expect(stranger.body).toMatchObject({ signed_in: false, first_run: false });
    const strangers: Record<string, string>[] = [{}, { authorization: 'Bearer not-the-run-token-at-all' }];
    for (const headers of strangers) {
      const claimed = await request(server, 'POST', '/auth/first-run', {
        json: { name: 'eve', password: TEAM_PASSWORD },
        headers,
      });
      expect(claimed.response.status, claimed.text).toBe(401);
      expect(claimed.body.error.code).toBe('unauthorized');
      expect(sessionCookie(claimed.response)).toBeNull();
    }
    expect(await new AccountRepository(server.database.db).anyAccount()).toBe(false);
    // The one who started the server, with its token, is offered first run and can take it.
    expect((await request(server, 'GET', '/auth/me', { headers: bearer })).body).toMatchObject({
      via: 'token',
      first_run: true,
    });
    const first = await request(server, 'POST', '/auth/first-run', {
      json: { name: 'ada', password: TEAM_PASSWORD },
      headers: bearer,
    });
    expect(first.response.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ signed_in: true, via: 'session', name: 'ada', role: 'admin' });
  });

  it('notices an account added by another process (the CLI) within a second', async () => {
    const server = await start();
    expect((await request(server, 'GET', '/cms/news')).response.status).toBe(200);
    await new AccountService({ repository: new AccountRepository(server.database.db) }).add({
      name: 'ada',
      role: 'admin',
      password: TEAM_PASSWORD,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await request(server, 'GET', '/cms/news')).response.status).toBe(401);
  });
});

describe('signing in', () => {
  it('slows and then refuses guessing from one address, for a while, without locking the person out', async () => {
    const server = await start({ signInLimits: { freeFailures: 2, blockAfter: 5, delayMs: 1, maxDelayMs: 5 } });
    await makeTeam(server);
    for (let i = 0; i < 5; i++) {
      const guess = await request(server, 'POST', '/auth/sign-in', {
        json: { name: 'ada', password: `guess number ${i}` },
      });
      expect(guess.response.status).toBe(401);
      expect(guess.body.error.code).toBe('unauthorized');
    }
    // Refused now, even with the right password.
    const blocked = await request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password: TEAM_PASSWORD } });
    expect(blocked.response.status).toBe(429);
    expect(blocked.body.error.code).toBe('too_many_requests');
    expect(Number(blocked.response.headers.get('retry-after'))).toBeGreaterThan(0);
    // Ada signing in from her own machine is not affected.
    expect(await signInFrom(server, '127.0.0.2', 'ada', TEAM_PASSWORD)).toBe(200);
  });

  it('answers a wrong name, a wrong password and a disabled account alike', async () => {
    const server = await start();
    const as = await makeTeam(server);
    await request(server, 'PATCH', '/accounts/vera', { json: { disabled: true }, headers: as.admin });
    const answers = await Promise.all(
      [
        ['nobody', TEAM_PASSWORD],
        ['ada', 'wrong password here'],
        ['vera', TEAM_PASSWORD],
      ].map(([name, password]) => request(server, 'POST', '/auth/sign-in', { json: { name, password } })),
    );
    expect(answers.map(({ response }) => response.status)).toEqual([401, 401, 401]);
    expect(new Set(answers.map(({ body }) => body.error.message)).size).toBe(1);
  });

  it('sets a cookie scripts cannot read and other sites cannot send; Secure when the editor is on https', async () => {
    const server = await start();
    await makeTeam(server);
    const plain = await request(server, 'POST', '/auth/sign-in', { json: { name: 'edna', password: TEAM_PASSWORD } });
    const cookie = plain.response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^quire_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    const proxied = await request(server, 'POST', '/auth/sign-in', {
      json: { name: 'edna', password: TEAM_PASSWORD },
      headers: { origin: `https://127.0.0.1:${server.port}` },
    });
    expect(proxied.response.headers.get('set-cookie')).toMatch(/; Secure$/);
  });

  it('a session cookie sent from another site does nothing', async () => {
    const server = await start();
    const as = await makeTeam(server);
    const cookie = as.editor.cookie;
    const before = await siteState(server, ['news']);
    const attempts: Record<string, string>[] = [
      { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { cookie, 'sec-fetch-site': 'cross-site' },
      { cookie, origin: 'null' },
      { cookie, 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' },
      // No Origin and no Sec-Fetch-Site: not the editor; a script would use a token.
      { cookie },
    ];
    for (const headers of attempts) {
      const write = await request(server, 'POST', '/cms/news', { json: newsBody(), headers });
      expect(write.response.status, JSON.stringify(headers)).toBe(403);
      const remove = await request(server, 'POST', '/auth/sign-out', { headers });
      expect(remove.response.status, JSON.stringify(headers)).toBe(403);
    }
    const read = await request(server, 'GET', '/cms/news', {
      headers: { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' },
    });
    expect(read.response.status).toBe(403);
    expect(await siteState(server, ['news'])).toEqual(before);
    // The same cookie from the editor itself still works: nothing above ended the session.
    expect((await request(server, 'POST', '/cms/news', { json: newsBody(), headers: as.editor })).response.status).toBe(
      201,
    );
  });
});

describe('paths', () => {
  it('are matched as Express routes them: another spelling of a path gets the same refusal', async () => {
    const server = await start();
    const as = await makeTeam(server);
    for (const path of ['/API/accounts', '/api/ACCOUNTS', '/api/Accounts/', '/api/Tokens', '/Api/accounts/vera']) {
      const viewer = await fetch(`${server.origin}${path}`, { headers: as.viewer });
      expect(viewer.status, path).toBe(403);
    }
    for (const path of ['/api/Cms/categories', '/api/CMS/categories', '/API/cms-content/categories']) {
      const limited = await fetch(`${server.origin}${path}`, { headers: as.news_token });
      expect(limited.status, path).toBe(403);
    }
    expect((await fetch(`${server.origin}/api/Cms/news`, { headers: as.news_token })).status).toBe(200);
  });
});

describe('sessions end', () => {
  it('at sign-out', async () => {
    const server = await start();
    const as = await makeTeam(server);
    const out = await request(server, 'POST', '/auth/sign-out', { headers: as.editor });
    expect(out.response.status).toBe(200);
    expect(out.response.headers.get('set-cookie')).toContain('Max-Age=0');
    const after = await request(server, 'GET', '/cms/news', { headers: as.editor });
    expect(after.response.status).toBe(401);
  });

  it('after a while without use, and not while in use', async () => {
    const server = await start({ sessionIdleMs: 2_000 });
    const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
    const headers = sessionHeaders(server, sessionCookie(first.response) as string);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Uses 700 ms apart, each well within the idle time, until more than the idle time has passed
    // since the sign-in.
    for (let i = 0; i < 3; i++) {
      await sleep(700);
      expect((await request(server, 'GET', '/cms/news', { headers })).response.status).toBe(200);
    }
    await sleep(2_200);
    const expired = await request(server, 'GET', '/cms/news', { headers });
    expect(expired.response.status).toBe(401);
    expect(expired.body.error.message).toMatch(/session has ended/);
  });

  it('when the account is disabled or its password reset; a role change applies at once', async () => {
    const server = await start();
    const as = await makeTeam(server);
    await request(server, 'PATCH', '/accounts/vera', { json: { disabled: true }, headers: as.admin });
    expect((await request(server, 'GET', '/cms/news', { headers: as.viewer })).response.status).toBe(401);
    const reset = await request(server, 'PATCH', '/accounts/edna', {
      json: { password: 'a brand new password' },
      headers: as.admin,
    });
    expect(reset.response.status).toBe(200);
    expect((await request(server, 'GET', '/cms/news', { headers: as.editor })).response.status).toBe(401);
    expect(await signIn(server, 'edna', 'a brand new password')).toHaveProperty('cookie');
    await request(server, 'PATCH', '/accounts/aldo', { json: { role: 'viewer' }, headers: as.admin });
    expect((await request(server, 'POST', '/cms/news', { json: newsBody(), headers: as.author })).response.status).toBe(
      403,
    );
  });
});

describe('account input', () => {
  it('refuses bad names, roles, passwords, limits and members with 400, taken names with 409', async () => {
    const server = await start();
    const as = await makeTeam(server);
    const add = (json: unknown) => request(server, 'POST', '/accounts', { json, headers: as.admin });
    const statuses = await Promise.all(
      [
        { name: 'x y', role: 'viewer', password: TEAM_PASSWORD },
        { name: 'zed', role: 'owner', password: TEAM_PASSWORD },
        { name: 'zed', role: 'viewer', password: 'too short' },
        { name: 'zed', role: 'viewer', password: TEAM_PASSWORD, content_types: ['News!'] },
        { name: 'zed', role: 'viewer', password: TEAM_PASSWORD, admin: true },
      ].map(async (json) => (await add(json)).response.status),
    );
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    expect((await add({ name: 'ada', role: 'viewer', password: TEAM_PASSWORD })).response.status).toBe(409);
    expect((await add({ name: 'ci', role: 'viewer', password: TEAM_PASSWORD })).response.status).toBe(409);
    const token = await request(server, 'POST', '/tokens', {
      json: { name: 'edna', role: 'viewer' },
      headers: as.admin,
    });
    expect(token.response.status).toBe(409);
    expect((await request(server, 'DELETE', '/accounts/vera', { headers: as.admin })).response.status).toBe(405);
    // The last admin stays an admin: no one could manage the site otherwise.
    for (const json of [{ role: 'editor' }, { disabled: true }]) {
      const refused = await request(server, 'PATCH', '/accounts/ada', { json, headers: as.admin });
      expect(refused.response.status).toBe(409);
      expect(refused.body.error.message).toMatch(/only admin/);
    }
    await request(server, 'PATCH', '/accounts/edna', { json: { role: 'admin' }, headers: as.admin });
    expect(
      (await request(server, 'PATCH', '/accounts/ada', { json: { role: 'editor' }, headers: as.admin })).response
        .status,
    ).toBe(200);
  });
});

describe('secrets', () => {
  it('never appear in an answer or the log: no password hash, no token hash, a token only once', async () => {
    const server = await start();
    const as = await makeTeam(server);
    const made = await request(server, 'POST', '/tokens', {
      json: { name: 'once', role: 'viewer' },
      headers: as.admin,
    });
    expect(made.response.headers.get('cache-control')).toBe('no-store');
    const token: string = made.body.token;
    const { db } = server.database;
    const hashes = [
      ...(await sql<{ h: string }>`select password_hash as h from quire_accounts`.execute(db)).rows,
      ...(await sql<{ h: string }>`select token_hash as h from quire_tokens`.execute(db)).rows,
      ...(await sql<{ h: string }>`select id as h from quire_sessions`.execute(db)).rows,
    ].map(({ h }) => h);
    expect(hashes.length).toBeGreaterThan(10);
    const answers = await Promise.all(
      ['/accounts', '/accounts/ada', '/tokens', '/auth/me'].map(
        async (path) => (await request(server, 'GET', path, { headers: as.admin })).text,
      ),
    );
    answers.push(
      (await request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password: TEAM_PASSWORD } })).text,
    );
    answers.push((await request(server, 'DELETE', '/tokens/once', { headers: as.admin })).text);
    for (const text of [...answers, JSON.stringify(server.errors)]) {
      for (const hash of hashes) expect(text).not.toContain(hash);
      expect(text).not.toContain(token);
      expect(text).not.toContain(TEAM_PASSWORD);
    }
    expect(server.errors).toEqual([]);
    // The session cookie's value is the only copy of it: the database holds its hash.
    const cookie = sessionCookie(
      (await request(server, 'POST', '/auth/sign-in', { json: { name: 'vera', password: TEAM_PASSWORD } })).response,
    );
    expect(hashes.join()).not.toContain((cookie ?? '').split('=')[1]);
  });
});
