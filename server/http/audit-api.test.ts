import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditListResponse } from '../../common/audit-contract.js';
import { request } from '../test-support/api-scenario.js';
import { type Credentials, makeTeam, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * The audit log over real HTTP (both engines): each kind of security event the API makes is
 * recorded with who, from where and what; `GET /api/audit` is for admins only, filters and pages
 * newest first; no secret ever reaches it; events past the retention are purged on start.
 */

const HOOK_SECRET = 'hook-signing-secret-never-logged';
const NEW_PASSWORD = 'a brand new password for cleo';
const WRONG_PASSWORD = 'this is not the password at all';

let server: TestServer;
let as: Credentials;
/** The API tokens made in these tests (their secrets), to look for in the log. */
const secrets: string[] = [TEAM_PASSWORD, HOOK_SECRET, NEW_PASSWORD, WRONG_PASSWORD];

async function ok(method: string, path: string, json?: unknown, headers = as.admin) {
  const { response, body, text } = await request(server, method, path, { json, headers });
  expect(response.status, text).toBeLessThan(300);
  return body;
}

async function audit(query = '', headers = as.admin): Promise<AuditListResponse> {
  const { response, body, text } = await request(server, 'GET', `/audit${query}`, { headers });
  expect(response.status, text).toBe(200);
  return body;
}

/** The newest event of `action`. */
async function newest(action: string): Promise<AuditEntry> {
  const { events } = await audit(`?action=${encodeURIComponent(action)}&limit=1`);
  expect(events, `no ${action} event`).toHaveLength(1);
  return events[0] as AuditEntry;
}

beforeAll(async () => {
  server = await startTestServer({
    signInLimits: { freeFailures: 100, nameBlockAfter: 4, blockAfter: 100, delayMs: 1, maxDelayMs: 1 },
  });
  as = await makeTeam(server);
});
afterAll(async () => {
  await server?.dispose();
});

describe('the audit log records', () => {
  it('the first run, accounts and tokens made by makeTeam, with who and from where', async () => {
    expect(await newest('first_run')).toMatchObject({ actor: 'ada', target: 'ada', address: '127.0.0.1' });
    const created = (await audit('?action=account.created')).events.map((event) => event.target);
    expect(created.sort()).toEqual(['aldo', 'anna', 'edna', 'vera']);
    expect(await newest('account.created')).toMatchObject({
      actor: 'ada',
      address: '127.0.0.1',
      detail: { role: 'viewer', content_types: null },
    });
    const tokens = (await audit('?action=token.created')).events;
    expect(tokens.map((event) => event.target).sort()).toEqual(['build', 'ci', 'news-bot', 'old', 'stale']);
    expect(tokens.find((event) => event.target === 'news-bot')?.detail).toMatchObject({
      role: 'editor',
      content_types: ['news'],
    });
    expect(await newest('token.revoked')).toMatchObject({ actor: 'ada', target: 'old' });
    const signIns = (await audit('?action=sign_in.succeeded')).events.map((event) => event.actor);
    expect(signIns.sort()).toEqual(['aldo', 'edna', 'vera']);
  });

  it('failed and locked sign-ins, with the name tried and never the password', async () => {
    for (let i = 0; i < 4; i++) {
      const { response } = await request(server, 'POST', '/auth/sign-in', {
        json: { name: 'anna', password: WRONG_PASSWORD },
      });
      expect(response.status).toBe(401);
    }
    const locked = await request(server, 'POST', '/auth/sign-in', { json: { name: 'anna', password: WRONG_PASSWORD } });
    expect(locked.response.status).toBe(429);
    const failed = await audit('?action=sign_in.failed&target=anna');
    expect(failed.total).toBe(4);
    expect(failed.events[0]).toMatchObject({ actor: null, address: '127.0.0.1', target: 'anna', detail: {} });
    expect(await newest('sign_in.locked')).toMatchObject({ actor: null, target: 'anna' });
  });

  it('role, content-type limit, disabling, enabling and password changes, each as its own event', async () => {
    await ok('POST', '/accounts', { name: 'cleo', role: 'editor', password: TEAM_PASSWORD });
    await ok('PATCH', '/accounts/cleo', { role: 'author' });
    expect(await newest('account.role_changed')).toMatchObject({
      actor: 'ada',
      target: 'cleo',
      detail: { from: 'editor', to: 'author' },
    });
    await ok('PATCH', '/accounts/cleo', { content_types: ['news'] });
    expect(await newest('account.types_changed')).toMatchObject({
      target: 'cleo',
      detail: { from: null, to: ['news'] },
    });
    await ok('PATCH', '/accounts/cleo', { disabled: true });
    expect(await newest('account.disabled')).toMatchObject({ target: 'cleo' });
    await ok('PATCH', '/accounts/cleo', { disabled: false });
    expect(await newest('account.enabled')).toMatchObject({ target: 'cleo' });
    await ok('PATCH', '/accounts/cleo', { password: NEW_PASSWORD });
    expect(await newest('account.password_changed')).toMatchObject({ actor: 'ada', target: 'cleo', detail: {} });
    // A refused change records nothing.
    const before = (await audit()).total;
    const refused = await request(server, 'PATCH', '/accounts/cleo', { json: { role: 'owner' }, headers: as.admin });
    expect(refused.response.status).toBe(400);
    expect((await audit()).total).toBe(before);
  });

  it('hook changes by their origin only, never the secret, path or query', async () => {
    const hook = await ok('POST', '/hooks', {
      url: 'https://builds.example.com/hooks/private-build-id?key=abc',
      secret: HOOK_SECRET,
    });
    expect(await newest('hook.created')).toMatchObject({
      actor: 'ada',
      target: hook.id,
      detail: { origin: 'https://builds.example.com', signed: true, content_types: null, actions: null },
    });
    await ok('PATCH', `/hooks/${hook.id}`, { actions: ['create'], secret: `${HOOK_SECRET}-2` });
    expect(await newest('hook.changed')).toMatchObject({
      target: hook.id,
      detail: { changed: ['actions', 'secret'], actions: ['create'] },
    });
    await ok('DELETE', `/hooks/${hook.id}`);
    expect(await newest('hook.deleted')).toMatchObject({ target: hook.id });
    expect(JSON.stringify((await audit('?limit=100')).events)).not.toContain('private-build-id');
  });

  it('the first run’s starter choice, with the types it left', async () => {
    await ok('POST', '/starters', { set: 'keep' });
    const chosen = await newest('content_type.starters_chosen');
    expect(chosen).toMatchObject({ actor: 'ada', target: 'keep', address: '127.0.0.1' });
    expect(chosen.detail.types).toEqual(expect.arrayContaining(['news']));
  });

  it('content-type creates, changes and deletes, by a token as well', async () => {
    const columns = [{ name: 'name', label: 'Name', type: 'text', required: true }];
    await ok('POST', '/cms-content', { title: 'Events', columns }, as.admin_token);
    expect(await newest('content_type.created')).toMatchObject({
      actor: 'ci',
      target: 'events',
      detail: { title: 'Events' },
    });
    await ok('PUT', '/cms-content/events', { title: 'Happenings', columns }, as.admin_token);
    expect(await newest('content_type.changed')).toMatchObject({ target: 'events', detail: { title: 'Happenings' } });
    await ok('DELETE', '/cms-content/events', undefined, as.admin_token);
    expect(await newest('content_type.deleted')).toMatchObject({ actor: 'ci', target: 'events' });
  });

  it('no secret: passwords, tokens and hook secrets appear nowhere in the log', async () => {
    const made = await ok('POST', '/tokens', { name: 'secret-check', role: 'viewer' });
    secrets.push(made.token);
    for (const credential of Object.values(as)) {
      const bearer = credential.authorization?.replace('Bearer ', '');
      if (bearer) secrets.push(bearer);
      const cookie = credential.cookie?.replace('quire_session=', '');
      if (cookie) secrets.push(cookie);
    }
    const all = JSON.stringify(await audit('?limit=100'));
    for (const secret of secrets) expect(all).not.toContain(secret);
    expect(all).not.toContain(HOOK_SECRET.slice(0, 20));
  });
});

describe('GET /api/audit', () => {
  it('is for admins: every other role, a type-limited token and no credential are refused', async () => {
    for (const who of ['editor', 'author', 'viewer', 'viewer_token', 'news_token']) {
      const { response, body } = await request(server, 'GET', '/audit', { headers: as[who] });
      expect(response.status, who).toBe(403);
      expect(body.error.code).toBe('forbidden');
    }
    expect((await request(server, 'GET', '/audit', { headers: as.none })).response.status).toBe(401);
    // An admin token limited to one content type: the log names every type, so it is refused too.
    const limited = await ok('POST', '/tokens', { name: 'news-admin', role: 'admin', content_types: ['news'] });
    const refused = await request(server, 'GET', '/audit', { headers: { authorization: `Bearer ${limited.token}` } });
    expect(refused.response.status).toBe(403);
    expect((await audit('', as.admin_token)).total).toBeGreaterThan(0);
  });

  it('filters by action, actor, target and time, and pages newest first with the total', async () => {
    const all = await audit('?limit=100');
    expect(all.retention_days).toBe(365);
    const ids = all.events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const byCi = await audit('?actor=ci&limit=100');
    expect(byCi.total).toBeGreaterThan(0);
    expect(byCi.events.every((event) => event.actor === 'ci')).toBe(true);
    const atCleo = await audit('?target=cleo&limit=100');
    expect(atCleo.events.every((event) => event.target === 'cleo')).toBe(true);
    expect(atCleo.total).toBe(6);

    const page = await audit('?limit=2&offset=1');
    expect(page).toMatchObject({ total: all.total, limit: 2, offset: 1 });
    expect(page.events.map((event) => event.id)).toEqual(ids.slice(1, 3));

    const oldest = all.events.at(-1) as AuditEntry;
    const day = oldest.at.slice(0, 10);
    expect((await audit(`?since=${day}&until=${day}&limit=1`)).total).toBe(
      all.events.filter((event) => event.at.startsWith(day)).length,
    );
    expect((await audit('?until=2000-01-01')).total).toBe(0);
    expect((await audit('?since=2999-01-01T00:00:00Z')).total).toBe(0);
  });

  it('refuses a malformed query with a 400', async () => {
    for (const query of ['?since=yesterday', '?until=2026-02-30', '?limit=0', '?offset=-1', '?who=ada']) {
      const { response, body } = await request(server, 'GET', `/audit${query}`, { headers: as.admin });
      expect(response.status, query).toBe(400);
      expect(body.error.code).toBe('bad_request');
    }
  });
});

describe('the client address', () => {
  it('is the forwarded one behind a trusted proxy, the peer otherwise', async () => {
    const behindProxy = await startTestServer({ trustProxy: ['loopback'] });
    try {
      const first = await request(behindProxy, 'POST', '/auth/first-run', {
        json: { name: 'ada', password: TEAM_PASSWORD },
      });
      expect(first.response.status).toBe(201);
      const { response } = await request(behindProxy, 'POST', '/auth/sign-in', {
        json: { name: 'ada', password: WRONG_PASSWORD },
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      expect(response.status).toBe(401);
      const { events } = await behindProxy.services.audit!.list({ action: 'sign_in.failed' }, { limit: 5, offset: 0 });
      expect(events.map((event) => event.address)).toEqual(['203.0.113.7']);
    } finally {
      await behindProxy.dispose();
    }
    const { response } = await request(server, 'POST', '/auth/sign-in', {
      json: { name: 'vera', password: WRONG_PASSWORD },
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(response.status).toBe(401);
    expect(await newest('sign_in.failed')).toMatchObject({ target: 'vera', address: '127.0.0.1' });
  });
});

describe('retention', () => {
  it('purges events older than --audit-days when the server starts', async () => {
    let clock = new Date('2026-03-01T12:00:00Z');
    const first = await startTestServer({ audit: { days: 30, now: () => clock } });
    let reopened: TestServer | undefined;
    try {
      const made = await request(first, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
      expect(made.response.status).toBe(201);
      await first.stop();
      clock = new Date('2026-03-20T12:00:00Z');
      reopened = await startTestServer({ ...reopenOptions(first), audit: { days: 30, now: () => clock } });
      await reopened.services.audit!.record({ action: 'token.created', actor: 'ada', target: 'later' });
      await reopened.stop();
      clock = new Date('2026-04-05T12:00:00Z');
      reopened = await startTestServer({ ...reopenOptions(first), audit: { days: 30, now: () => clock } });
      const { events } = await reopened.services.audit!.list({}, { limit: 10, offset: 0 });
      expect(events.map((event) => event.action)).toEqual(['token.created']);
    } finally {
      await reopened?.dispose();
      await first.dispose();
    }
  });
});
