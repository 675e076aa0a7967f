// Engine: PostgreSQL only: `quire serve --database URL` and QUIRE_DATABASE_URL on a PostgreSQL database of its own.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from './config/package-root.js';
import { readQuireConfig, UsageError } from './config/quire-config.js';
import { postgresForTests, skipNote, useTestDatabase } from './test-support/postgres.js';

/** `quire serve --database URL` and `QUIRE_DATABASE_URL`. */

const postgres = await postgresForTests();
const SECRET = 'Sekr3tPassw0rd';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
});

/**
 * Runs the built CLI (dist/server/cli.js: needs `node scripts/build.mjs`, which npm test runs
 * first) with only the given Quire variables set. It starts in a fraction of the time cli.ts takes
 * under tsx; cli.test.ts runs the sources under tsx.
 */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [join(packageRoot(), 'dist', 'server', 'cli.js'), ...args], {
    cwd: packageRoot(),
    env: { ...process.env, QUIRE_DB: '', QUIRE_DATABASE_URL: '', QUIRE_PORT: '', QUIRE_HOST: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function waitFor(check: () => RegExpMatchArray | null, ms = 20_000): Promise<RegExpMatchArray> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const match = check();
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out waiting for CLI output');
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('choosing the database on the command line', () => {
  const url = 'postgres://quire:pw@db.example:5433/site';

  it('reads --database and QUIRE_DATABASE_URL as PostgreSQL, --db and QUIRE_DB as SQLite', () => {
    expect(readQuireConfig(['--database', url], {}).postgres).toMatchObject({
      host: 'db.example',
      port: 5433,
      database: 'site',
    });
    expect(readQuireConfig([], { QUIRE_DATABASE_URL: url }).postgres).toMatchObject({ database: 'site' });
    expect(readQuireConfig(['--db', '/tmp/a.sqlite'], {}).postgres).toBeNull();
    // A flag overrides the variables, whichever engine each names.
    expect(readQuireConfig(['--db', '/tmp/a.sqlite'], { QUIRE_DATABASE_URL: url })).toMatchObject({
      dbFile: '/tmp/a.sqlite',
      postgres: null,
    });
    expect(readQuireConfig(['--database', url], { QUIRE_DB: '/tmp/a.sqlite' }).postgres).not.toBeNull();
  });

  it.each([
    [['--db', '/tmp/a.sqlite', '--database', url], {}, /either --db FILE .* or --database URL/],
    [[], { QUIRE_DB: '/tmp/a.sqlite', QUIRE_DATABASE_URL: url }, /QUIRE_DB and QUIRE_DATABASE_URL are both set/],
    [['--database', `mysql://root:${SECRET}@h/d`], {}, /--database: A PostgreSQL URL starts with postgres:\/\//],
    [['--database', `postgres://u:${SECRET}@h:99999/d`], {}, /--database: .*port/],
  ])('refuses %j %j in one line, without credentials', (args, env, message) => {
    expect(() => readQuireConfig(args, env)).toThrow(UsageError);
    try {
      readQuireConfig(args, env);
    } catch (error) {
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(SECRET);
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('quire serve --database', () => {
  it('says in one line, without credentials, that PostgreSQL cannot be reached', async () => {
    const port = await closedPort();
    const run = runCli(['serve', '--port', '0', '--database', `postgres://quire:${SECRET}@127.0.0.1:${port}/site`]);
    expect(await run.exit).toBe(1);
    expect(run.stderr().trim()).toBe(`quire: Cannot reach PostgreSQL at 127.0.0.1:${port} (connection refused)`);
    expect(run.stdout() + run.stderr()).not.toContain(SECRET);
  });

  it('runs backup, restore, import and media prune on the PostgreSQL database QUIRE_DATABASE_URL names', async () => {
    const port = await closedPort();
    const url = `postgres://quire:${SECRET}@127.0.0.1:${port}/site`;
    const dir = mkdtempSync(join(tmpdir(), 'quire-cli-pg-'));
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '[]');
    const commands = [['backup'], ['restore', dir], ['import', '--type', 'news', empty], ['media', 'prune']];
    try {
      // Side by side: each only fails to connect.
      const runs = commands.map((args) => runCli(args, { QUIRE_DATABASE_URL: url }));
      for (const [index, run] of runs.entries()) {
        expect(await run.exit, commands[index].join(' ')).toBe(1);
        expect(run.stderr()).toMatch(
          new RegExp(
            `^quire( import| media)?: Cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port} \\(connection refused\\)\n$`,
          ),
        );
        expect(run.stderr()).not.toContain(SECRET);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!postgres.available)(`quire serve on a PostgreSQL database${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);

  it('names host, port and database only, and serves the API', async () => {
    // Trust authentication ignores the password, so the URL may carry one to check it is never shown.
    const url = new URL(database().url);
    url.username = 'postgres';
    url.password = SECRET;
    const backups = mkdtempSync(join(tmpdir(), 'quire-cli-pg-'));
    const run = runCli(['serve', '--port', '0', '--demo', '--backup-dir', backups], {
      QUIRE_DATABASE_URL: url.toString(),
    });
    const match = await waitFor(() =>
      run.stdout().match(/^Quire API listening on (http:\/\/127\.0\.0\.1:\d+\/api) \(PostgreSQL database (.+)\)$/m),
    );
    expect(match[2]).toBe(`${url.hostname}:${url.port || 5432}/${database().name}`);
    const response = await fetch(`${match[1]}/cms/news?limit=1&filter=search=a`);
    const body = (await response.json()) as { total: number; rows: unknown[] };
    expect(response.status).toBe(200);
    expect(body.total).toBeGreaterThan(0);
    expect(run.stdout()).toContain(`Backups (at start, then daily): ${backups}\n`);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stdout() + run.stderr()).not.toContain(SECRET);
    // The start-up backup was taken: stopping waits for one in progress.
    expect(readdirSync(backups)).toEqual([expect.stringMatching(/^quire_test_\w+-postgres-[\dTZ-]+$/)]);
    rmSync(backups, { recursive: true, force: true });
  });
});
