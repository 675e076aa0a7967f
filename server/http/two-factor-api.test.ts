import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import type { SignInLimits } from '../accounts/sign-in-limiter.js';
import type { TwoFactorRequirement } from '../accounts/two-factor-service.js';
import { request } from '../test-support/api-scenario.js';
import { sessionCookie, sessionHeaders, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Two-factor sign-in over real HTTP (both engines): enrolment with a confirmation code, the second
 * step of signing in with a TOTP code (once) or a recovery code (once), the limiter counting
 * guessed codes, turning it off, an admin's reset, and `--require-2fa` holding a session to
 * enrolment. The server's clock is the test's, so codes of chosen time steps are sent.
 */

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.dispose()));
  servers = [];
});

/** No slowed answers: these tests count answers, not time. */
const QUICK: Partial<SignInLimits> = { freeFailures: 1_000, delayMs: 1, maxDelayMs: 1 };

/** A clock the test moves: codes are checked by it. */
const clock = { ms: Date.UTC(2026, 10, 28, 20, 0, 5) };

/**
 * A server with ada (admin, by first run) and edna (editor). With a requirement, the accounts are
 * made first and the server restarted on the same database with `--require-2fa` (a held admin
 * could not add edna): ada's session carries over.
 */
async function start(options: { requirement?: TwoFactorRequirement; limits?: Partial<SignInLimits> } = {}) {
  const serverOptions = { signInLimits: { ...QUICK, ...options.limits } };
  const setup = await startTestServer({ ...serverOptions, twoFactor: { now: () => clock.ms } });
  const first = await request(setup, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
  expect(first.response.status, first.text).toBe(201);
  const cookie = sessionCookie(first.response) as string;
  const added = await request(setup, 'POST', '/accounts', {
    json: { name: 'edna', role: 'editor', password: TEAM_PASSWORD },
    headers: sessionHeaders(setup, cookie),
  });
  expect(added.response.status, added.text).toBe(201);
  let server = setup;
  if (options.requirement) {
    await setup.stop();
    server = await startTestServer({
      ...reopenOptions(setup),
      ...serverOptions,
      twoFactor: { requirement: options.requirement, now: () => clock.ms },
    });
  }
  servers.push(server);
  return { server, ada: sessionHeaders(server, cookie) };
}

/** The code an authenticator app shows for `secret`, `steps` time steps from the clock's now. */
function appCode(secret: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.ms + steps * 30_000 });
}

/** Enrols the session's account: returns its secret and recovery codes. */
async function enrol(server: TestServer, headers: Record<string, string>) {
  const started = await request(server, 'POST', '/account/two-factor/enrol', { headers });
  expect(started.response.status, started.text).toBe(200);
  const secret: string = started.body.secret;
  const confirmed = await request(server, 'POST', '/account/two-factor/confirm', {
    json: { code: appCode(secret) },
    headers,
  });
  expect(confirmed.response.status, confirmed.text).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recovery_codes as string[], started: started.body };
}

/** The password step: its answer and the challenge's token. */
async function passwordStep(server: TestServer, name: string, password = TEAM_PASSWORD) {
  const answer = await request(server, 'POST', '/auth/sign-in', { json: { name, password } });
  return { ...answer, token: answer.body?.second_factor_token as string | undefined };
}

function secondStep(server: TestServer, token: string | undefined, code: string) {
  return request(server, 'POST', '/auth/second-factor', { json: { token, code } });
}

describe('enrolment', () => {
  it('shows a secret and its QR code once, turns on only with a right code, and gives ten recovery codes', async () => {
    const { server, ada } = await start();
    const before = await request(server, 'GET', '/auth/me', { headers: ada });
    expect(before.body.two_factor).toEqual({ enabled: false, enrolment_required: false, recovery_codes_left: 0 });

    const started = await request(server, 'POST', '/account/two-factor/enrol', { headers: ada });
    expect(started.response.status, started.text).toBe(200);
    expect(started.response.headers.get('cache-control')).toBe('no-store');
    const { secret, uri, qr_code } = started.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toContain('otpauth://totp/Quire:ada?');
    expect(uri).toContain(`secret=${secret}`);
    expect(qr_code).toMatch(/^data:image\/png;base64,/);
    expect(started.body.qr_path.size).toBeGreaterThanOrEqual(21);
    expect(started.body.qr_path.d).toMatch(/^(M\d+ \d+h1v1h-1z)+$/);

    const wrong = await request(server, 'POST', '/account/two-factor/confirm', {
      json: { code: appCode(secret, 5) },
      headers: ada,
    });
    expect(wrong.response.status).toBe(401);
    expect((await request(server, 'GET', '/account/two-factor', { headers: ada })).body.enabled).toBe(false);

    const confirmed = await request(server, 'POST', '/account/two-factor/confirm', {
      json: { code: appCode(secret) },
      headers: ada,
    });
    expect(confirmed.response.status, confirmed.text).toBe(200);
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    expect(confirmed.body.status).toEqual({ enabled: true, enrolment_required: false, recovery_codes_left: 10 });
    const me = await request(server, 'GET', '/auth/me', { headers: ada });
    expect(me.body.two_factor).toEqual({ enabled: true, enrolment_required: false, recovery_codes_left: 10 });

    // The secret is never answered again; enrolling again while on is a conflict.
    for (const path of ['/auth/me', '/account/two-factor', '/accounts', '/accounts/ada']) {
      const read = await request(server, 'GET', path, { headers: ada });
      expect(read.response.status).toBe(200);
      expect(read.text).not.toContain(secret);
    }
    const again = await request(server, 'POST', '/account/two-factor/enrol', { headers: ada });
    expect(again.response.status).toBe(409);
  });

  it('is for signed-in accounts: a token is refused, and without a credential it is a 401', async () => {
    const { server, ada } = await start();
    const made = await request(server, 'POST', '/tokens', { json: { name: 'ci', role: 'admin' }, headers: ada });
    expect(made.response.status, made.text).toBe(201);
    const byToken = await request(server, 'POST', '/account/two-factor/enrol', {
      headers: { authorization: `Bearer ${made.body.token}` },
    });
    expect(byToken.response.status).toBe(403);
    expect((await request(server, 'GET', '/account/two-factor')).response.status).toBe(401);
  });
});

describe('signing in with a second factor', () => {
  it('asks for a code after the password, with no session until the code is right', async () => {
    const { server, ada } = await start();
    const { secret } = await enrol(server, ada);
    const step = await passwordStep(server, 'ada');
    expect(step.response.status, step.text).toBe(200);
    expect(step.body.second_factor_required).toBe(true);
    expect(step.body.signed_in).toBe(false);
    expect(sessionCookie(step.response)).toBeNull();
    expect(typeof step.token).toBe('string');

    const wrong = await secondStep(server, step.token, appCode(secret, 7));
    expect(wrong.response.status).toBe(401);
    expect(sessionCookie(wrong.response)).toBeNull();

    const right = await secondStep(server, step.token, appCode(secret, 1));
    expect(right.response.status, right.text).toBe(200);
    expect(right.body).toMatchObject({ signed_in: true, name: 'ada', via: 'session' });
    const cookie = sessionCookie(right.response) as string;
    expect(cookie).not.toBeNull();
    const me = await request(server, 'GET', '/accounts', { headers: sessionHeaders(server, cookie) });
    expect(me.response.status).toBe(200);

    // The challenge completes once.
    const reused = await secondStep(server, step.token, appCode(secret, 1));
    expect(reused.response.status).toBe(401);
  });

  it('accepts a code once: the same code, or one of an earlier step, is refused afterwards', async () => {
    const { server, ada } = await start();
    const { secret } = await enrol(server, ada);
    const first = await passwordStep(server, 'ada');
    expect((await secondStep(server, first.token, appCode(secret, 1))).response.status).toBe(200);
    const second = await passwordStep(server, 'ada');
    expect((await secondStep(server, second.token, appCode(secret, 1))).response.status).toBe(401);
    expect((await secondStep(server, second.token, appCode(secret, -1))).response.status).toBe(401);
    clock.ms += 60_000;
    expect((await secondStep(server, second.token, appCode(secret))).response.status).toBe(200);
  });

  it('sent at once, the same code completes one sign-in, and two recovery codes both do', async () => {
    const { server, ada } = await start();
    const { secret, recoveryCodes } = await enrol(server, ada);
    const steps = await Promise.all([1, 2, 3, 4].map(() => passwordStep(server, 'ada')));
    const same = await Promise.all(steps.map((step) => secondStep(server, step.token, appCode(secret, 1))));
    expect(same.map((answer) => answer.response.status).sort()).toEqual([200, 401, 401, 401]);
    const more = await Promise.all([0, 1].map(() => passwordStep(server, 'ada')));
    const recovered = await Promise.all(more.map((step, i) => secondStep(server, step.token, recoveryCodes[i])));
    expect(recovered.map((answer) => answer.response.status)).toEqual([200, 200]);
    const again = await Promise.all([0, 1].map(() => passwordStep(server, 'ada')));
    const reused = await Promise.all(again.map((step) => secondStep(server, step.token, recoveryCodes[2])));
    expect(reused.map((answer) => answer.response.status).sort()).toEqual([200, 401]);
  });

  it('takes a recovery code instead, each once', async () => {
    const { server, ada } = await start();
    const { recoveryCodes } = await enrol(server, ada);
    const first = await passwordStep(server, 'ada');
    const used = await secondStep(server, first.token, recoveryCodes[0]);
    expect(used.response.status, used.text).toBe(200);
    const headers = sessionHeaders(server, sessionCookie(used.response) as string);
    expect((await request(server, 'GET', '/account/two-factor', { headers })).body.recovery_codes_left).toBe(9);
    const second = await passwordStep(server, 'ada');
    expect((await secondStep(server, second.token, recoveryCodes[0])).response.status).toBe(401);
    expect((await secondStep(server, second.token, recoveryCodes[1].toUpperCase())).response.status).toBe(200);
  });

  it('refuses a wrong password as before, and a made-up or missing token', async () => {
    const { server, ada } = await start();
    const { secret } = await enrol(server, ada);
    const wrong = await passwordStep(server, 'ada', 'not the password at all');
    expect(wrong.response.status).toBe(401);
    expect(wrong.body.second_factor_token).toBeUndefined();
    for (const token of [undefined, 'x'.repeat(43), 42]) {
      const answer = await request(server, 'POST', '/auth/second-factor', { json: { token, code: appCode(secret) } });
      expect(answer.response.status).toBe(401);
      expect(sessionCookie(answer.response)).toBeNull();
    }
  });

  it('counts guessed codes in the sign-in limiter, at the account’s name', async () => {
    const { server, ada } = await start({ limits: { nameBlockAfter: 3, blockAfter: 50 } });
    const { secret } = await enrol(server, ada);
    const step = await passwordStep(server, 'ada');
    const statuses: number[] = [];
    for (const steps of [4, 5, 6])
      statuses.push((await secondStep(server, step.token, appCode(secret, steps))).response.status);
    expect(statuses).toEqual([401, 401, 401]);
    // Locked now: even the right code (and the right password) waits.
    const right = await secondStep(server, step.token, appCode(secret, 1));
    expect(right.response.status).toBe(429);
    expect(right.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await passwordStep(server, 'ada')).response.status).toBe(429);
    // A right password between guesses does not reset the count of guessed codes.
    const other = await start({ limits: { nameBlockAfter: 3, blockAfter: 50 } });
    const { secret: edSecret } = await enrol(other.server, other.ada);
    const a = await passwordStep(other.server, 'ada');
    await secondStep(other.server, a.token, appCode(edSecret, 4));
    await secondStep(other.server, a.token, appCode(edSecret, 5));
    const b = await passwordStep(other.server, 'ada');
    expect(b.response.status).toBe(200);
    expect((await secondStep(other.server, b.token, appCode(edSecret, 6))).response.status).toBe(401);
    expect((await secondStep(other.server, b.token, appCode(edSecret, 1))).response.status).toBe(429);
  });
});

describe('a name locked by guesses', () => {
  it('signs in with the password and a code in one request; anything less gets the same 401', async () => {
    const { server, ada } = await start({ limits: { nameBlockAfter: 3, blockAfter: 50 } });
    const { secret } = await enrol(server, ada);
    for (let i = 0; i < 3; i++) expect((await passwordStep(server, 'ada', 'wrong password')).response.status).toBe(401);
    expect((await passwordStep(server, 'ada')).response.status).toBe(429);
    const oneStep = (password: string, code: string) =>
      request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password, code } });
    // A wrong code with the right password, and a right code with a wrong one: the same answer.
    const wrongCode = await oneStep(TEAM_PASSWORD, appCode(secret, 4));
    const wrongPassword = await oneStep('wrong password', appCode(secret));
    expect([wrongCode.response.status, wrongPassword.response.status]).toEqual([401, 401]);
    expect(wrongCode.body.error.message).toBe(wrongPassword.body.error.message);
    const right = await oneStep(TEAM_PASSWORD, appCode(secret, 1));
    expect(right.response.status, right.text).toBe(200);
    expect(sessionCookie(right.response)).toBeTruthy();
    // Signed in, the name's failures are forgotten: the password step works again.
    expect((await passwordStep(server, 'ada')).response.status).toBe(200);
  });

  it('stays locked for an account without a second factor, and for codes guessed with a right password', async () => {
    const { server, ada } = await start({ limits: { nameBlockAfter: 3, blockAfter: 50 } });
    for (let i = 0; i < 3; i++) await passwordStep(server, 'edna', 'wrong password');
    const edna = await request(server, 'POST', '/auth/sign-in', {
      json: { name: 'edna', password: TEAM_PASSWORD, code: '123456' },
    });
    expect(edna.response.status).toBe(401);
    const { secret } = await enrol(server, ada);
    for (const steps of [4, 5, 6]) {
      const guess = await request(server, 'POST', '/auth/sign-in', {
        json: { name: 'ada', password: TEAM_PASSWORD, code: appCode(secret, steps) },
      });
      expect(guess.response.status).toBe(401);
    }
    const locked = await request(server, 'POST', '/auth/sign-in', {
      json: { name: 'ada', password: TEAM_PASSWORD, code: appCode(secret, 1) },
    });
    expect(locked.response.status).toBe(429);
  });
});

describe('turning it off', () => {
  it('needs the password and a code; then signing in asks for the password only', async () => {
    const { server, ada } = await start();
    const { secret } = await enrol(server, ada);
    const noPassword = await request(server, 'POST', '/account/two-factor/disable', {
      json: { password: 'wrong password here', code: appCode(secret, 1) },
      headers: ada,
    });
    expect(noPassword.response.status).toBe(401);
    const noCode = await request(server, 'POST', '/account/two-factor/disable', {
      json: { password: TEAM_PASSWORD, code: '000000' },
      headers: ada,
    });
    expect(noCode.response.status).toBe(401);
    expect((await request(server, 'GET', '/account/two-factor', { headers: ada })).body.enabled).toBe(true);
    const off = await request(server, 'POST', '/account/two-factor/disable', {
      json: { password: TEAM_PASSWORD, code: appCode(secret, 1) },
      headers: ada,
    });
    expect(off.response.status, off.text).toBe(200);
    expect(off.body.enabled).toBe(false);
    const plain = await passwordStep(server, 'ada');
    expect(plain.body.second_factor_required).toBeUndefined();
    expect(sessionCookie(plain.response)).not.toBeNull();
  });

  it('an admin resets another account’s (a lost phone); no one else may', async () => {
    const { server, ada } = await start();
    const edSignIn = await request(server, 'POST', '/auth/sign-in', {
      json: { name: 'edna', password: TEAM_PASSWORD },
    });
    const edna = sessionHeaders(server, sessionCookie(edSignIn.response) as string);
    await enrol(server, edna);
    expect((await passwordStep(server, 'edna')).body.second_factor_required).toBe(true);
    const byEditor = await request(server, 'DELETE', '/accounts/ada/two-factor', { headers: edna });
    expect(byEditor.response.status).toBe(403);
    const reset = await request(server, 'DELETE', '/accounts/edna/two-factor', { headers: ada });
    expect(reset.response.status, reset.text).toBe(200);
    expect(reset.body.enabled).toBe(false);
    expect((await passwordStep(server, 'edna')).body.second_factor_required).toBeUndefined();
    expect((await request(server, 'DELETE', '/accounts/nobody/two-factor', { headers: ada })).response.status).toBe(
      404,
    );
  });
});

describe('--require-2fa', () => {
  it('admins: an admin without a second factor may only enrol, then everything; an editor is not held', async () => {
    const { server, ada } = await start({ requirement: 'admins' });
    const held = await request(server, 'GET', '/accounts', { headers: ada });
    expect(held.response.status).toBe(403);
    expect(held.body.error.code).toBe('two_factor_enrolment_required');
    const fastPath = await request(server, 'GET', '/cms/news', { headers: ada });
    expect(fastPath.response.status).toBe(403);
    expect(fastPath.body.error.code).toBe('two_factor_enrolment_required');
    const me = await request(server, 'GET', '/auth/me', { headers: ada });
    expect(me.body.two_factor).toEqual({ enabled: false, enrolment_required: true, recovery_codes_left: 0 });

    const edSignIn = await request(server, 'POST', '/auth/sign-in', {
      json: { name: 'edna', password: TEAM_PASSWORD },
    });
    const edna = sessionHeaders(server, sessionCookie(edSignIn.response) as string);
    expect((await request(server, 'GET', '/cms/news', { headers: edna })).response.status).toBe(200);

    await enrol(server, ada);
    expect((await request(server, 'GET', '/accounts', { headers: ada })).response.status).toBe(200);
    expect((await request(server, 'GET', '/auth/me', { headers: ada })).body.two_factor.enrolment_required).toBe(false);
  });

  it('everyone: an editor is held too', async () => {
    const { server } = await start({ requirement: 'everyone' });
    const edSignIn = await request(server, 'POST', '/auth/sign-in', {
      json: { name: 'edna', password: TEAM_PASSWORD },
    });
    const edna = sessionHeaders(server, sessionCookie(edSignIn.response) as string);
    const held = await request(server, 'POST', '/cms/news', { json: { title: 'x' }, headers: edna });
    expect(held.response.status).toBe(403);
    expect(held.body.error.code).toBe('two_factor_enrolment_required');
    await enrol(server, edna);
    expect((await request(server, 'GET', '/cms/news', { headers: edna })).response.status).toBe(200);
  });
});
