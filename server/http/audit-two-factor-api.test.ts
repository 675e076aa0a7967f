import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../common/audit-contract.js';
import { request } from '../test-support/api-scenario.js';
import { sessionCookie, sessionHeaders, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Two-factor sign-in in the audit log (both engines): enrolment, the second step's success and
 * failure, turning it off and an admin's reset; the TOTP secret and recovery codes never appear.
 */

const clock = { ms: Date.UTC(2026, 10, 28, 20, 0, 5) };
let server: TestServer;
let ada: Record<string, string>;

const code = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.ms + steps * 30_000 });

async function events(action: string): Promise<AuditEntry[]> {
  const { response, body, text } = await request(server, 'GET', `/audit?action=${action}`, { headers: ada });
  expect(response.status, text).toBe(200);
  return body.events;
}

beforeAll(async () => {
  server = await startTestServer({
    signInLimits: { freeFailures: 1_000, delayMs: 1, maxDelayMs: 1 },
    twoFactor: { now: () => clock.ms },
  });
  const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
  expect(first.response.status, first.text).toBe(201);
  ada = sessionHeaders(server, sessionCookie(first.response) as string);
  const added = await request(server, 'POST', '/accounts', {
    json: { name: 'edna', role: 'editor', password: TEAM_PASSWORD },
    headers: ada,
  });
  expect(added.response.status, added.text).toBe(201);
});
afterAll(async () => {
  await server?.dispose();
});

describe('the audit log of two-factor sign-in', () => {
  it('records enrolment, both sign-in steps, turning off and a reset, never a secret or code', async () => {
    const signedIn = await request(server, 'POST', '/auth/sign-in', {
      json: { name: 'edna', password: TEAM_PASSWORD },
    });
    const edna = sessionHeaders(server, sessionCookie(signedIn.response) as string);
    const started = await request(server, 'POST', '/account/two-factor/enrol', { headers: edna });
    const secret: string = started.body.secret;
    const confirmed = await request(server, 'POST', '/account/two-factor/confirm', {
      json: { code: code(secret) },
      headers: edna,
    });
    expect(confirmed.response.status, confirmed.text).toBe(200);
    const recoveryCodes: string[] = confirmed.body.recovery_codes;
    expect(await events('two_factor.enrolled')).toEqual([
      expect.objectContaining({ actor: 'edna', target: 'edna', address: '127.0.0.1' }),
    ]);

    // The password step alone is no sign-in yet; a wrong code fails, a right one signs in.
    const password = await request(server, 'POST', '/auth/sign-in', {
      json: { name: 'edna', password: TEAM_PASSWORD },
    });
    const token: string = password.body.second_factor_token;
    expect(token).toEqual(expect.any(String));
    const wrong = await request(server, 'POST', '/auth/second-factor', { json: { token, code: '000000' } });
    expect(wrong.response.status).toBe(401);
    expect((await events('sign_in.failed'))[0]).toMatchObject({
      actor: null,
      target: 'edna',
      detail: { second_factor: true },
    });
    clock.ms += 30_000;
    const right = await request(server, 'POST', '/auth/second-factor', { json: { token, code: code(secret) } });
    expect(right.response.status, right.text).toBe(200);
    expect((await events('sign_in.succeeded'))[0]).toMatchObject({
      actor: 'edna',
      target: 'edna',
      detail: { second_factor: true },
    });

    const reset = await request(server, 'DELETE', '/accounts/edna/two-factor', { headers: ada });
    expect(reset.response.status, reset.text).toBe(200);
    expect(await events('two_factor.reset')).toEqual([
      expect.objectContaining({ actor: 'ada', target: 'edna', detail: { was_on: true } }),
    ]);

    const all = JSON.stringify((await request(server, 'GET', '/audit?limit=100', { headers: ada })).body);
    for (const value of [secret, token, ...recoveryCodes, TEAM_PASSWORD]) expect(all).not.toContain(value);
  });

  it('records turning it off by the account itself', async () => {
    clock.ms += 60_000;
    const signedIn = await request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password: TEAM_PASSWORD } });
    const headers = sessionHeaders(server, sessionCookie(signedIn.response) as string);
    const started = await request(server, 'POST', '/account/two-factor/enrol', { headers });
    const secret: string = started.body.secret;
    await request(server, 'POST', '/account/two-factor/confirm', { json: { code: code(secret) }, headers });
    clock.ms += 30_000;
    const off = await request(server, 'POST', '/account/two-factor/disable', {
      json: { password: TEAM_PASSWORD, code: code(secret) },
      headers,
    });
    expect(off.response.status, off.text).toBe(200);
    expect(await events('two_factor.disabled')).toEqual([expect.objectContaining({ actor: 'ada', target: 'ada' })]);
  });
});
