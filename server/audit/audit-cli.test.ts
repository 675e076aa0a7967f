import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { accountCommand } from '../accounts/account-command.js';
import { TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/** `quire user` and `quire token` record their changes in the audit log as `cli`, with no address. */

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

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

async function quire(kind: 'user' | 'token', args: string[], stdin = '') {
  const running = server as TestServer;
  const where = running.postgresDatabase ? ['--database', running.postgresDatabase.url] : ['--db', running.dbFile];
  const out = sink();
  const err = sink();
  const code = await accountCommand(kind, [...args, ...where], { input: Readable.from([stdin]), out, err });
  expect({ code, err: err.text() }).toEqual({ code: 0, err: '' });
  return out.text();
}

describe('the audit log of quire user and quire token', () => {
  it('records each account and token change by cli, never the password or the token', async () => {
    server = await startTestServer();
    await quire('user', ['add', 'ada', '--role', 'admin'], `${TEAM_PASSWORD}\n`);
    await quire('user', ['add', 'nick', '--role', 'author'], `${TEAM_PASSWORD}\n`);
    await quire('user', ['role', 'nick', 'editor', '--types', 'news']);
    await quire('user', ['disable', 'nick']);
    await quire('user', ['enable', 'nick']);
    await quire('user', ['passwd', 'nick'], 'another good password\n');
    await quire('user', ['2fa-reset', 'nick']);
    const token = (await quire('token', ['add', 'ci', '--role', 'viewer'])).trim();
    await quire('token', ['revoke', 'ci']);

    const { events } = await server.services.audit!.list({}, { limit: 100, offset: 0 });
    expect(events.every((event) => event.actor === 'cli' && event.address === null)).toBe(true);
    expect(events.map((event) => [event.action, event.target]).reverse()).toEqual([
      ['account.created', 'ada'],
      ['account.created', 'nick'],
      ['account.role_changed', 'nick'],
      ['account.types_changed', 'nick'],
      ['account.disabled', 'nick'],
      ['account.enabled', 'nick'],
      ['account.password_changed', 'nick'],
      ['two_factor.reset', 'nick'],
      ['token.created', 'ci'],
      ['token.revoked', 'ci'],
    ]);
    expect(events.find((event) => event.action === 'account.role_changed')?.detail).toEqual({
      from: 'author',
      to: 'editor',
    });
    const all = JSON.stringify(events);
    for (const secret of [TEAM_PASSWORD, 'another good password', token]) expect(all).not.toContain(secret);
  });
});
