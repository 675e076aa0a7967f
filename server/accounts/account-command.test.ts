import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { ResponseChecker } from '../test-support/openapi-responses.js';
import { newsBody } from '../test-support/seed.js';
import { signIn, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { accountCommand } from './account-command.js';

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

/** Runs `quire user|token ...` on the test server's database, with `stdin` piped in. */
async function quire(server: TestServer, kind: 'user' | 'token', args: string[], stdin = '') {
  const out = sink();
  const err = sink();
  const where = server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];
  const code = await accountCommand(kind, [...args, ...where], { input: Readable.from([stdin]), out, err });
  return { code, out: out.text(), err: err.text() };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

describe('quire user and quire token, while the server runs', () => {
  it('adds the first admin (password from stdin), and the running server asks for sign-in from then on', async () => {
    server = await startTestServer();
    expect((await request(server, 'GET', '/cms/news')).response.status).toBe(200);
    const added = await quire(server, 'user', ['add', 'ada', '--role', 'admin'], `${TEAM_PASSWORD}\n`);
    expect(added).toMatchObject({ code: 0, out: 'Added ada (admin).\n', err: '' });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await request(server, 'GET', '/cms/news')).response.status).toBe(401);
    const signedIn = await request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password: TEAM_PASSWORD } });
    expect(signedIn.response.status).toBe(200);

    const limited = await quire(server, 'user', ['add', 'nick', '--role', 'author', '--types', 'news'], TEAM_PASSWORD);
    expect(limited.out).toBe('Added nick (author of news).\n');
    expect((await quire(server, 'user', ['list'])).out).toBe('ada: admin\nnick: author of news\n');
    expect((await quire(server, 'user', ['role', 'nick', 'editor'])).out).toBe('nick is now editor of news.\n');
    expect((await quire(server, 'user', ['disable', 'nick'])).out).toBe('Disabled nick; their sessions were ended.\n');
    expect((await quire(server, 'user', ['list'])).out).toContain('nick: editor of news, disabled');
    const changed = await quire(server, 'user', ['passwd', 'ada'], 'another good password\n');
    expect(changed.out).toBe('Changed the password of ada; their sessions were ended.\n');
    const old = await request(server, 'POST', '/auth/sign-in', { json: { name: 'ada', password: TEAM_PASSWORD } });
    expect(old.response.status).toBe(401);
  });

  it('says so when an account is named like the editor name, whose rows made before accounts become its own', async () => {
    // The test server's editor name is `tester`: rows made before accounts name it as author.
    server = await startTestServer();
    const made: string[] = [];
    for (const title of ['Before accounts', 'Also before']) {
      const { response, body } = await request(server, 'POST', '/cms/news', { json: newsBody({ title }) });
      expect(response.status).toBe(201);
      made.push(body.id);
    }
    const added = await quire(server, 'user', ['add', 'tester', '--role', 'author'], `${TEAM_PASSWORD}\n`);
    expect(added).toMatchObject({ code: 0, err: '' });
    expect(added.out).toBe(
      "Added tester (author). 2 rows already name tester as author (made under the editor name before accounts existed, or with the run token): they are tester's own now.\n",
    );
    // No such rows, no such sentence.
    expect((await quire(server, 'user', ['add', 'ada', '--role', 'admin'], `${TEAM_PASSWORD}\n`)).out).toBe(
      'Added ada (admin).\n',
    );
    // What it says is so: the author may change those rows as their own.
    const tester = await signIn(server, 'tester');
    const changed = await request(server, 'PUT', `/cms/news/${made[0]}`, { headers: tester, json: { title: 'Mine' } });
    expect(changed.response.status, changed.text).toBe(200);
  });

  it('says so in the API answer too, which names how many rows', async () => {
    server = await startTestServer();
    const made = await request(server, 'POST', '/cms/news', { json: newsBody({ title: 'Before accounts' }) });
    expect(made.response.status).toBe(201);
    expect((await quire(server, 'user', ['add', 'ada', '--role', 'admin'], `${TEAM_PASSWORD}\n`)).code).toBe(0);
    const admin = await signIn(server, 'ada');
    const add = (name: string) =>
      request(server as TestServer, 'POST', '/accounts', {
        headers: admin,
        json: { name, role: 'editor', password: TEAM_PASSWORD },
      });
    const tester = await add('tester');
    expect(tester.response.status, tester.text).toBe(201);
    expect(tester.body).toMatchObject({ name: 'tester', role: 'editor', inherited_rows: 1 });
    expect(tester.body.notice).toBe(
      "1 row already names tester as author (made under the editor name before accounts existed, or with the run token): they are tester's own now",
    );
    const document = (await request(server, 'GET', '/openapi.json', { headers: admin })).body;
    expect(new ResponseChecker(document).problems('POST', '/accounts', 201, tester.body)).toEqual([]);
    const other = await add('edna');
    expect(other.response.status, other.text).toBe(201);
    expect(other.body).not.toHaveProperty('inherited_rows');
    expect(other.body).not.toHaveProperty('notice');
  });

  it('says so in the answer of the first run when the first admin takes the editor name', async () => {
    server = await startTestServer();
    for (const title of ['Before accounts', 'Also before']) {
      const made = await request(server, 'POST', '/cms/news', { json: newsBody({ title }) });
      expect(made.response.status, made.text).toBe(201);
    }
    const first = await request(server, 'POST', '/auth/first-run', {
      json: { name: 'tester', password: TEAM_PASSWORD },
    });
    expect(first.response.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ signed_in: true, name: 'tester', role: 'admin', inherited_rows: 2 });
    expect(first.body.notice).toBe(
      "2 rows already name tester as author (made under the editor name before accounts existed, or with the run token): they are tester's own now",
    );
    const admin = await signIn(server, 'tester');
    const document = (await request(server, 'GET', '/openapi.json', { headers: admin })).body;
    expect(new ResponseChecker(document).problems('POST', '/auth/first-run', 201, first.body)).toEqual([]);
  });

  it('says nothing of inherited rows in the answer of the first run when none name the first admin', async () => {
    server = await startTestServer();
    const made = await request(server, 'POST', '/cms/news', { json: newsBody({ title: 'Before accounts' }) });
    expect(made.response.status, made.text).toBe(201);
    const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
    expect(first.response.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ signed_in: true, name: 'ada' });
    expect(first.body).not.toHaveProperty('inherited_rows');
    expect(first.body).not.toHaveProperty('notice');
  });

  it('makes a token (printed once, alone on its line), lists and revokes it', async () => {
    server = await startTestServer();
    const made = await quire(server, 'token', [
      'add',
      'build',
      '--role',
      'editor',
      '--types',
      'news',
      '--expires',
      '30',
    ]);
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^quire_[A-Za-z0-9_-]{43}\n$/);
    const token = made.out.trim();
    const headers = { authorization: `Bearer ${token}` };
    const created = await request(server, 'POST', '/cms/news', { json: newsBody(), headers });
    expect(created.response.status).toBe(201);
    expect(created.body.rows[0].created_by).toBe('build');
    const listed = await quire(server, 'token', ['list']);
    expect(listed.out).toMatch(/^build: editor of news, expires \S+, last used \S+\n$/);
    expect(listed.out).not.toContain(token);
    expect((await quire(server, 'token', ['revoke', 'build'])).code).toBe(0);
    expect((await request(server, 'GET', '/cms/news', { headers })).response.status).toBe(401);
    expect((await quire(server, 'token', ['revoke', 'build'])).code).toBe(1);
  });

  it('explains mistakes in one line: usage (2) and refusals (1), never taking a password from the command line', async () => {
    server = await startTestServer();
    const cases: ['user' | 'token', string[], string, number, RegExp][] = [
      ['user', ['add', 'ada'], TEAM_PASSWORD, 2, /the role must be one of admin, editor, author, viewer/],
      ['user', ['add', 'ada', '--role', 'admin', '--password', 'x'], '', 2, /Unknown option '--password'/],
      ['user', ['add', 'ada', '--role', 'admin'], 'short\n', 1, /at least 10 characters/],
      ['user', ['add', 'ada', '--role', 'admin'], '', 1, /no password was given/],
      ['user', ['rename', 'ada'], '', 2, /unknown user command "rename"/],
      ['user', ['role', 'nobody', 'viewer'], '', 1, /no account named "nobody"/],
      ['token', ['add', 'ci', '--role', 'admin', '--expires', 'soon'], '', 1, /expires_days must be a whole number/],
      ['token', ['add', 'ci'], '', 2, /the role must be one of/],
    ];
    for (const [kind, args, stdin, code, message] of cases) {
      const result = await quire(server, kind, args, stdin);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.err).toMatch(message);
      expect(result.err.trim().split('\n')).toHaveLength(1);
      expect(result.out).toBe('');
    }
  });
});
