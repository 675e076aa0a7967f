import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRoleRule } from '../../common/single-sign-on-rules.js';
import { accountCommand } from '../accounts/account-command.js';
import { AccountService } from '../accounts/account-service.js';
import type { SingleSignOnConfig } from '../accounts/single-sign-on-config.js';
import { AuditService } from '../audit/audit-service.js';
import { AccountRepository } from '../db/repositories/account-repository.js';
import { request } from '../test-support/api-scenario.js';
import {
  browse,
  CookieJar,
  followSignIn,
  startTestProvider,
  type TestProvider,
} from '../test-support/oidc-test-provider.js';
import { sessionCookie, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Single sign-on over real HTTP against a real OpenID Connect provider (oidc-provider) on this
 * machine: the browser's redirects are followed with a cookie jar and the provider's own login and
 * consent forms are submitted. Nothing of the flow is mocked.
 */

let servers: TestServer[] = [];
let providers: TestProvider[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.dispose()));
  await Promise.all(providers.map((provider) => provider.close()));
  servers = [];
  providers = [];
});

const RULES = ['admin:groups=quire-admins', 'editor:email_domain=example.com'];

/** A provider with three people, and a Quire server signing in through it. */
async function start(
  options: { invitedOnly?: boolean; passwordSignIn?: boolean; firstRun?: boolean } = {},
): Promise<{ server: TestServer; provider: TestProvider }> {
  const provider = await startTestProvider();
  providers.push(provider);
  provider.people.set('p-ada', {
    preferred_username: 'ada',
    email: 'ada@corp.test',
    email_verified: true,
    groups: ['quire-admins'],
  });
  provider.people.set('p-bob', { preferred_username: 'bob smith', email: 'bob@example.com', email_verified: true });
  provider.people.set('p-eve', { preferred_username: 'eve', email: 'eve@elsewhere.test', email_verified: true });
  const singleSignOn: SingleSignOnConfig = {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    roles: RULES.map(parseRoleRule),
    name: 'Test ID',
    invitedOnly: options.invitedOnly ?? false,
  };
  const server = await startTestServer({ singleSignOn, passwordSignIn: options.passwordSignIn });
  servers.push(server);
  provider.register(`${server.origin}/api/auth/oidc/callback`);
  if (options.firstRun !== false) {
    // A password admin exists, so sign-in is needed (and the name "admin" is taken).
    const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'root', password: TEAM_PASSWORD } });
    expect(first.response.status, first.text).toBe(201);
  }
  return { server, provider };
}

/** One sign-in through the provider as `login`: where the browser lands, and the jar. */
async function signInAs(server: TestServer, login: string, jar = new CookieJar()) {
  const { response } = await followSignIn(jar, new URL('/api/auth/oidc/start', server.origin), login, server.origin);
  return { jar, status: response?.status, location: response?.headers.get('location') };
}

/** Who the jar's session cookie is, per /api/auth/me. */
async function me(server: TestServer, jar: CookieJar) {
  const response = await browse(jar, new URL('/api/auth/me', server.origin));
  return (await response.json()) as { signed_in: boolean; name: string | null; role: string | null; via: string };
}

/** The audit log of the server's database. */
function auditOf(server: TestServer): AuditService {
  return new AuditService({ db: server.database.db });
}

async function accountNames(server: TestServer): Promise<string[]> {
  return (await new AccountRepository(server.database.db).listAccounts()).map((account) => account.name);
}

describe('single sign-on through a real OpenID Connect provider', () => {
  it('says how to sign in here: the provider by name, and password sign-in', async () => {
    const { server } = await start();
    const answer = await request(server, 'GET', '/auth/providers');
    expect(answer.response.status).toBe(200);
    expect(answer.body).toEqual({
      password: true,
      single_sign_on: { name: 'Test ID', start_url: '/api/auth/oidc/start' },
    });
  });

  it('makes the account with the mapped role on the first sign-in and lands in the editor signed in', async () => {
    const { server } = await start();
    const { jar, status, location } = await signInAs(server, 'p-ada');
    expect(status).toBe(303);
    expect(location).toBe('/');
    expect(jar.get('quire_session')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(await me(server, jar)).toMatchObject({ signed_in: true, via: 'session', name: 'ada', role: 'admin' });
    expect(await accountNames(server)).toEqual(['ada', 'root']);
    const audited = await auditOf(server).list({ action: 'sign_in.succeeded' }, { limit: 10, offset: 0 });
    expect(audited.events.map(({ actor, target, detail }) => ({ actor, target, detail }))).toEqual([
      { actor: 'ada', target: 'ada', detail: { via: 'single_sign_on', created: true } },
    ]);
  });

  it('reuses the account on a later sign-in, even after a rename at the provider', async () => {
    const { server, provider } = await start();
    const first = await signInAs(server, 'p-bob');
    // "bob smith" is not a valid account name: made valid.
    expect(await me(server, first.jar)).toMatchObject({ name: 'bob-smith', role: 'editor' });
    provider.people.set('p-bob', { preferred_username: 'robert', email: 'robert@example.com', email_verified: true });
    const second = await signInAs(server, 'p-bob');
    expect(second.location).toBe('/');
    expect(await me(server, second.jar)).toMatchObject({ name: 'bob-smith', role: 'editor' });
    expect(await accountNames(server)).toEqual(['bob-smith', 'root']);
  });

  it('refuses a disabled account through the provider as well', async () => {
    const { server } = await start();
    await signInAs(server, 'p-ada');
    await new AccountService({ repository: new AccountRepository(server.database.db) }).change('ada', {
      disabled: true,
    });
    const { jar, location } = await signInAs(server, 'p-ada');
    expect(location).toBe('/?sso_error=sso_account_disabled');
    expect(jar.get('quire_session')).toBeUndefined();
  });

  it('never takes over an account with a password: a taken name gets a number', async () => {
    const { server, provider } = await start();
    provider.people.set('p-root', { preferred_username: 'root', email: 'root@example.com', email_verified: true });
    const { jar } = await signInAs(server, 'p-root');
    expect(await me(server, jar)).toMatchObject({ name: 'root-2', role: 'editor' });
  });

  it('refuses a person no role rule matches: the sign-in page says why, no account is made', async () => {
    const { server } = await start();
    const { jar, status, location } = await signInAs(server, 'p-eve');
    expect(status).toBe(303);
    expect(location).toBe('/?sso_error=sso_not_mapped');
    expect(jar.get('quire_session')).toBeUndefined();
    expect(await accountNames(server)).toEqual(['root']);
    const audited = await auditOf(server).list({ action: 'sign_in.failed' }, { limit: 10, offset: 0 });
    expect(audited.events.map(({ actor, target, detail }) => ({ actor, target, detail }))).toEqual([
      { actor: null, target: 'eve', detail: { via: 'single_sign_on', reason: 'sso_not_mapped' } },
    ]);
  });

  it('refuses an unverified e-mail address for an email_domain rule', async () => {
    const { server, provider } = await start();
    provider.people.set('p-mal', { preferred_username: 'mal', email: 'mal@example.com', email_verified: false });
    expect((await signInAs(server, 'p-mal')).location).toBe('/?sso_error=sso_not_mapped');
  });

  it('with --oidc-invited-only refuses a stranger and binds an invited account by name', async () => {
    const { server } = await start({ invitedOnly: true });
    const stranger = await signInAs(server, 'p-bob');
    expect(stranger.location).toBe('/?sso_error=sso_not_invited');
    expect(await accountNames(server)).toEqual(['root']);
    // Invited as an admin does it: quire user add NAME --sso, no password asked for.
    const out: string[] = [];
    const err: string[] = [];
    const stream = (lines: string[]) =>
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
    const where = server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];
    const code = await accountCommand('user', ['add', 'ada', '--role', 'author', '--sso', ...where], {
      input: Readable.from([]),
      out: stream(out),
      err: stream(err),
    });
    expect({ code, out: out.join(''), err: err.join('') }).toEqual({
      code: 0,
      out: 'Added ada (author), signing in only through the identity provider.\n',
      err: '',
    });
    const invited = await signInAs(server, 'p-ada');
    expect(invited.location).toBe('/');
    // The role the admin gave stays.
    expect(await me(server, invited.jar)).toMatchObject({ name: 'ada', role: 'author' });
    // The invited account has no password to sign in with: nothing matches it, the empty one included.
    for (const password of ['', TEAM_PASSWORD]) {
      const byPassword = await request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password } });
      expect(byPassword.response.status).toBe(401);
    }
  });

  it('refuses a callback whose state was tampered with, or that no sign-in here started', async () => {
    const { server } = await start();
    const jar = new CookieJar();
    const { url: callback } = await followSignIn(
      jar,
      new URL('/api/auth/oidc/start', server.origin),
      'p-ada',
      server.origin,
      (url) => url.pathname === '/api/auth/oidc/callback',
    );
    expect(callback.searchParams.get('code')).toBeTruthy();
    // The right state from a browser that did not start the sign-in (no flow cookie).
    const elsewhere = new CookieJar();
    const stranger = await browse(elsewhere, callback);
    expect(stranger.status).toBe(303);
    expect(stranger.headers.get('location')).toBe('/?sso_error=sso_state_mismatch');
    expect(elsewhere.get('quire_session')).toBeUndefined();
    // The browser that started it, with another state.
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'x'.repeat(43));
    const refused = await browse(jar, tampered);
    expect(refused.headers.get('location')).toBe('/?sso_error=sso_state_mismatch');
    expect(jar.get('quire_session')).toBeUndefined();
    // The flow is used up by the refused callback: the untouched one is refused too now.
    const replayed = await browse(jar, callback);
    expect(replayed.headers.get('location')).toBe('/?sso_error=sso_state_mismatch');
    expect(jar.get('quire_session')).toBeUndefined();
    expect(await accountNames(server)).toEqual(['root']);
  });

  it('brings a person who cancels at the provider back with sso_provider_error', async () => {
    const { server } = await start();
    const jar = new CookieJar();
    const { url } = await followSignIn(
      jar,
      new URL('/api/auth/oidc/start', server.origin),
      'p-ada',
      server.origin,
      (next) => next.pathname.startsWith('/interaction/'),
    );
    // The provider's own "Cancel": it sends the browser back with error=access_denied.
    const { response } = await followSignIn(jar, new URL(`${url.pathname}/abort`, url), 'p-ada', server.origin);
    expect(response?.headers.get('location')).toBe('/?sso_error=sso_provider_error');
    expect(jar.get('quire_session')).toBeUndefined();
    expect(await accountNames(server)).toEqual(['root']);
  });

  it('says the provider is unavailable when it cannot be reached, and logs why', async () => {
    const { server, provider } = await start();
    await provider.close();
    const started = await browse(new CookieJar(), new URL('/api/auth/oidc/start', server.origin));
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toBe('/?sso_error=sso_unavailable');
    expect(server.errors.length).toBeGreaterThan(0);
  });

  it('with password sign-in off answers 403 password_sign_in_off, and the provider still signs in', async () => {
    const { server } = await start({ passwordSignIn: false, firstRun: false });
    // First run would set a password: not offered, and refused.
    expect((await request(server, 'GET', '/auth/me')).body).toMatchObject({ accounts_exist: false, first_run: false });
    const firstRun = await request(server, 'POST', '/auth/first-run', {
      json: { name: 'root', password: TEAM_PASSWORD },
    });
    expect(firstRun.response.status).toBe(403);
    const { jar } = await signInAs(server, 'p-ada');
    expect(await me(server, jar)).toMatchObject({ name: 'ada', role: 'admin' });
    const refused = await request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password: TEAM_PASSWORD } });
    expect(refused.response.status).toBe(403);
    expect(refused.body).toMatchObject({
      error: { code: 'forbidden', detail: { code: 'password_sign_in_off' } },
    });
    expect(sessionCookie(refused.response)).toBeNull();
    expect((await request(server, 'GET', '/auth/providers')).body).toMatchObject({ password: false });
  });
});
