import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { SignInLimits } from '../accounts/sign-in-limiter.js';
import { request } from '../test-support/api-scenario.js';
import { sessionCookie, sessionHeaders, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * The sign-in limiter over real HTTP: guesses sent at once never get past the limits, a guessed
 * name is locked wherever the guesses come from without locking other names beyond the address's
 * own limit, and forwarded addresses count only from a trusted proxy (`--trust-proxy`).
 */

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.dispose()));
  servers = [];
});

/** No slowed answers: these tests count answers, not time. */
const QUICK: Partial<SignInLimits> = { freeFailures: 1_000, delayMs: 1, maxDelayMs: 1 };

async function start(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(options);
  servers.push(server);
  // Two accounts: ada (admin, by first run) and edna.
  const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
  expect(first.response.status, first.text).toBe(201);
  const admin = sessionHeaders(server, sessionCookie(first.response) as string);
  const added = await request(server, 'POST', '/accounts', {
    json: { name: 'edna', role: 'editor', password: TEAM_PASSWORD },
    headers: admin,
  });
  expect(added.response.status, added.text).toBe(201);
  return server;
}

/** One sign-in: from `localAddress` (a loopback address of this machine), with extra headers. */
function signIn(
  server: TestServer,
  name: string,
  password: string,
  options: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.api}/auth/sign-in`,
      {
        method: 'POST',
        agent: false,
        localAddress: options.localAddress ?? '127.0.0.1',
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ name, password }));
  });
}

const count = (statuses: number[], status: number) => statuses.filter((one) => one === status).length;

describe('guesses sent at once', () => {
  it('never get more password checks than the name allows', async () => {
    const server = await start({ signInLimits: { ...QUICK, blockAfter: 50, nameBlockAfter: 7 } });
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => signIn(server, 'ada', `guess number ${i}`)),
    );
    expect(count(statuses, 401)).toBe(7);
    expect(count(statuses, 429)).toBe(93);
  });

  it('never get more password checks than the address allows, at many names', async () => {
    const server = await start({ signInLimits: { ...QUICK, blockAfter: 12, nameBlockAfter: 5 } });
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => signIn(server, `guessed${i}`, `guess number ${i}`)),
    );
    expect(count(statuses, 401)).toBe(12);
    expect(count(statuses, 429)).toBe(88);
  });
});

describe('a guessed name', () => {
  it('is locked from every address; other names sign in from the guessing address up to its own limit', async () => {
    const server = await start({ signInLimits: { ...QUICK, blockAfter: 8, nameBlockAfter: 4 } });
    for (let i = 0; i < 4; i++) expect(await signIn(server, 'ada', `guess number ${i}`)).toBe(401);
    // Locked, even with the right password, wherever it comes from.
    expect(await signIn(server, 'ada', TEAM_PASSWORD)).toBe(429);
    expect(await signIn(server, 'ada', TEAM_PASSWORD, { localAddress: '127.0.0.2' })).toBe(429);
    // Another name from the same address still signs in.
    expect(await signIn(server, 'edna', TEAM_PASSWORD)).toBe(200);
    // Until the address reaches its own limit (4 failures so far; 4 more at other names).
    for (let i = 0; i < 4; i++) expect(await signIn(server, `nobody${i}`, 'a wrong password')).toBe(401);
    expect(await signIn(server, 'edna', TEAM_PASSWORD)).toBe(429);
    // From another address edna is not affected.
    expect(await signIn(server, 'edna', TEAM_PASSWORD, { localAddress: '127.0.0.2' })).toBe(200);
  });

  it('signs in again once the lock has ended', async () => {
    // A lock long enough to be seen on a busy machine; the clock itself is the unit test's.
    const server = await start({ signInLimits: { ...QUICK, nameBlockAfter: 2, blockMs: 2_000, windowMs: 2_000 } });
    for (let i = 0; i < 2; i++) expect(await signIn(server, 'ada', `guess number ${i}`)).toBe(401);
    expect(await signIn(server, 'ada', TEAM_PASSWORD)).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await signIn(server, 'ada', TEAM_PASSWORD)).toBe(200);
  });
});

describe('forwarded addresses (X-Forwarded-For)', () => {
  const LIMITS: Partial<SignInLimits> = { ...QUICK, blockAfter: 3, nameBlockAfter: 100 };
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

  it.each([
    ['no proxy is trusted', undefined],
    ['another address is trusted', ['127.0.0.2']],
    ['another range is trusted', ['10.0.0.0/8']],
  ])('are ignored when %s', async (_name, trustProxy) => {
    const server = await start({ signInLimits: LIMITS, trustProxy });
    for (let i = 0; i < 3; i++) {
      expect(await signIn(server, 'ada', 'a wrong password', from(`203.0.113.${i + 1}`))).toBe(401);
    }
    // Every guess counted at the peer, 127.0.0.1, whatever it claimed to forward.
    expect(await signIn(server, 'edna', TEAM_PASSWORD, from('198.51.100.9'))).toBe(429);
  });

  it('count each client behind a trusted proxy on its own, an IPv6 client by its /64', async () => {
    const server = await start({ signInLimits: LIMITS, trustProxy: ['loopback'] });
    for (let i = 0; i < 3; i++) {
      expect(await signIn(server, 'ada', 'a wrong password', from('203.0.113.7'))).toBe(401);
    }
    expect(await signIn(server, 'ada', TEAM_PASSWORD, from('203.0.113.7'))).toBe(429);
    // Another person behind the same proxy signs in; so does the proxy's machine itself.
    expect(await signIn(server, 'ada', TEAM_PASSWORD, from('203.0.113.8'))).toBe(200);
    expect(await signIn(server, 'edna', TEAM_PASSWORD)).toBe(200);
    // A client cannot choose its address by sending its own X-Forwarded-For: the proxy appends the
    // peer it saw, and that (the rightmost untrusted address) is the one counted.
    expect(await signIn(server, 'edna', TEAM_PASSWORD, from('198.51.100.1, 203.0.113.7'))).toBe(429);
    for (let i = 0; i < 3; i++) {
      expect(await signIn(server, 'ada', 'a wrong password', from(`2001:db8:1:2::${i + 1}`))).toBe(401);
    }
    expect(await signIn(server, 'edna', TEAM_PASSWORD, from('2001:db8:1:2:ffff::9'))).toBe(429);
    expect(await signIn(server, 'edna', TEAM_PASSWORD, from('2001:db8:1:3::1'))).toBe(200);
  });
});
