import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { readQuireConfig, UsageError } from '../config/quire-config.js';
import { openDatabase } from '../db/database.js';
import { AccountRepository } from '../db/repositories/account-repository.js';
import { request } from '../test-support/api-scenario.js';
import { spawnServer } from '../test-support/child-server.js';
import { sessionCookie, sessionHeaders, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { accountCommand } from './account-command.js';
import { AccountService } from './account-service.js';

/** Collects what a command writes. */
function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => chunks.join('') });
}

/** Runs `quire user ...` on the test server's database. */
async function quireUser(server: TestServer, args: string[]) {
  const out = sink();
  const err = sink();
  const where = server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];
  const code = await accountCommand('user', [...args, ...where], { input: Readable.from(['']), out, err });
  return { code, out: out.text(), err: err.text() };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

describe('quire user 2fa-reset', () => {
  it('turns off an account’s two-factor sign-in while the server runs; one line each time', async () => {
    const now = Date.UTC(2026, 10, 28, 20, 30, 5);
    server = await startTestServer({ twoFactor: { now: () => now } });
    const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
    const ada = sessionHeaders(server, sessionCookie(first.response) as string);
    const started = await request(server, 'POST', '/account/two-factor/enrol', { headers: ada });
    const code = TOTP.generate({ secret: Secret.fromBase32(started.body.secret), timestamp: now });
    const confirmed = await request(server, 'POST', '/account/two-factor/confirm', { json: { code }, headers: ada });
    expect(confirmed.response.status, confirmed.text).toBe(200);
    const asked = await request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password: TEAM_PASSWORD } });
    expect(asked.body.second_factor_required).toBe(true);

    expect(await quireUser(server, ['2fa-reset', 'ada'])).toEqual({
      code: 0,
      out: 'Turned off two-factor sign-in for ada: they sign in with their password and may enrol again.\n',
      err: '',
    });
    const plain = await request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password: TEAM_PASSWORD } });
    expect(plain.response.status).toBe(200);
    expect(plain.body.second_factor_required).toBeUndefined();
    expect(sessionCookie(plain.response)).not.toBeNull();

    expect((await quireUser(server, ['2fa-reset', 'ada'])).out).toBe(
      'ada had no two-factor sign-in; nothing changed.\n',
    );
    expect(await quireUser(server, ['2fa-reset', 'nobody'])).toEqual({
      code: 1,
      out: '',
      err: 'quire user: There is no account named "nobody"\n',
    });
    const usage = await quireUser(server, ['2fa-reset']);
    expect(usage.code).toBe(2);
    expect(usage.err).toBe('quire user: 2fa-reset takes NAME (quire help user shows each form)\n');
  });
});

describe('--require-2fa', () => {
  it('takes admins or everyone from the flag or QUIRE_REQUIRE_2FA; no one by default', () => {
    expect(readQuireConfig([], {}).requireTwoFactor).toBeNull();
    expect(readQuireConfig(['--require-2fa', 'admins'], {}).requireTwoFactor).toBe('admins');
    expect(readQuireConfig([], { QUIRE_REQUIRE_2FA: 'everyone' }).requireTwoFactor).toBe('everyone');
    expect(readQuireConfig(['--require-2fa', 'Admins'], { QUIRE_REQUIRE_2FA: 'everyone' }).requireTwoFactor).toBe(
      'admins',
    );
  });

  it('refuses anything else with one line', () => {
    expect(() => readQuireConfig(['--require-2fa', 'editors'], {})).toThrow(UsageError);
    expect(() => readQuireConfig(['--require-2fa', 'editors'], {})).toThrow(
      /^--require-2fa: "editors" is not one of admins, everyone$/,
    );
  });
});

describe('quire serve --require-2fa', () => {
  it('holds an admin without a second factor to enrolment in a real server process', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-require-2fa-'));
    const file = join(dir, 'content.sqlite');
    const site = await openDatabase(file);
    await new AccountService({ repository: new AccountRepository(site.db) }).add({
      name: 'ada',
      role: 'admin',
      password: TEAM_PASSWORD,
    });
    await site.close();
    const child = await spawnServer(file, ['--no-backups', '--require-2fa', 'admins'], 'built');
    try {
      const signedIn = await fetch(`${child.api}/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'ada', password: TEAM_PASSWORD }),
      });
      expect(signedIn.status).toBe(200);
      const cookie = sessionCookie(signedIn) as string;
      const held = await fetch(`${child.api}/cms/news`, { headers: { cookie } });
      expect(held.status).toBe(403);
      expect(((await held.json()) as { error: { code: string } }).error.code).toBe('two_factor_enrolment_required');
      const me = (await (await fetch(`${child.api}/auth/me`, { headers: { cookie } })).json()) as {
        two_factor: { enrolment_required: boolean };
      };
      expect(me.two_factor.enrolment_required).toBe(true);
    } finally {
      await child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
