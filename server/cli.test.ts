import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_HOST, DEFAULT_PORT, explainStartError } from './cli-commands.js';
import { packageRoot } from './config/package-root.js';
import { readQuireConfig, UsageError } from './config/quire-config.js';

const root = packageRoot();
const dir = mkdtempSync(join(tmpdir(), 'quire-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI from source (node + tsx), as a developer runs it. */
const SOURCES = ['--import', 'tsx', join(root, 'server', 'cli.ts')];

/**
 * The built CLI, as `npm run serve` runs it (dist/server/cli.js: needs `node scripts/build.mjs`,
 * which npm test runs first). It starts in a fraction of the time the sources take under tsx, so
 * the tests that are not about the sources run it.
 */
const BUILT = [join(root, 'dist', 'server', 'cli.js')];

/** Runs the CLI, built unless `entry` says otherwise. */
function runCli(args: string[], entry: string[] = BUILT): ChildProcess {
  return spawn(process.execPath, [...entry, ...args], {
    cwd: root,
    env: { ...process.env, QUIRE_DB: '', QUIRE_DATABASE_URL: '', QUIRE_PORT: '', QUIRE_HOST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function output(child: ChildProcess): { stdout: () => string; stderr: () => string; exit: Promise<number | null> } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { stdout: () => stdout, stderr: () => stderr, exit };
}

async function waitFor(check: () => RegExpMatchArray | null, ms = 15_000): Promise<RegExpMatchArray> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const match = check();
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out waiting for CLI output');
}

describe('readQuireConfig', () => {
  it('defaults to 127.0.0.1:4780 and the per-user database', () => {
    const options = readQuireConfig([], {});
    expect(options).toMatchObject({ host: DEFAULT_HOST, port: DEFAULT_PORT, demo: false });
    expect(options.dbFile).toMatch(/Quire[/\\]content\.sqlite$/);
  });

  it('treats empty environment variables as unset', () => {
    expect(readQuireConfig([], { QUIRE_HOST: '', QUIRE_PORT: '', QUIRE_DB: '' })).toMatchObject({
      host: DEFAULT_HOST,
      port: DEFAULT_PORT,
    });
  });

  it('reads QUIRE_DB, QUIRE_PORT, QUIRE_HOST and QUIRE_EDITOR', () => {
    expect(
      readQuireConfig([], {
        QUIRE_DB: '/tmp/e.sqlite',
        QUIRE_PORT: '5000',
        QUIRE_HOST: 'localhost',
        QUIRE_EDITOR: 'Bo',
      }),
    ).toMatchObject({
      dbFile: '/tmp/e.sqlite',
      port: 5000,
      host: 'localhost',
      editorName: 'Bo',
    });
  });

  it('reads every flag', () => {
    expect(
      readQuireConfig(['--db', '/tmp/x.sqlite', '--port', '0', '--host', '::1', '--editor', 'Ann', '--demo'], {}),
    ).toMatchObject({
      dbFile: '/tmp/x.sqlite',
      port: 0,
      host: '::1',
      editorName: 'Ann',
      demo: true,
    });
  });

  it.each([
    [['--port', 'abc'], /--port must be a whole number/],
    [['--port', '70000'], /--port must be a whole number/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['extra'], /Unexpected argument/],
  ])('refuses %j with a one-line explanation', (args, message) => {
    expect(() => readQuireConfig(args, {})).toThrow(UsageError);
    expect(() => readQuireConfig(args, {})).toThrow(message);
  });
});

describe('explainStartError', () => {
  const options = readQuireConfig(['--port', '4780', '--db', '/tmp/x.sqlite'], {});
  it('explains a port in use and how to pick another', () => {
    expect(explainStartError(Object.assign(new Error('x'), { code: 'EADDRINUSE' }), options)).toBe(
      'Port 4780 is already in use on 127.0.0.1; pass --port with another number, or --port 0 for a free one.',
    );
  });
  it('explains a file that is not a database', () => {
    expect(explainStartError(Object.assign(new Error('x'), { code: 'SQLITE_NOTADB' }), options)).toMatch(
      /not a Quire database/,
    );
  });
});

describe('quire serve', () => {
  it('from the sources, prints the one listening line, serves the API, and stops cleanly on SIGTERM', async () => {
    const dbFile = join(dir, 'nested', 'folder', 'content.sqlite');
    const child = runCli(['serve', '--db', dbFile, '--port', '0', '--editor', 'Ann', '--demo'], SOURCES);
    const out = output(child);
    const match = await waitFor(() =>
      out.stdout().match(/^Quire API listening on (http:\/\/127\.0\.0\.1:(\d+)\/api) \(database (.+)\)$/m),
    );
    expect(match[3]).toBe(dbFile);
    const response = await fetch(`${match[1]}/cms/news?limit=1`);
    const body = (await response.json()) as { total: number; rows: { created_by: string }[] };
    expect(body.total).toBeGreaterThanOrEqual(24);
    expect(body.rows[0].created_by).toBe('Ann');
    child.kill('SIGTERM');
    expect(await out.exit).toBe(0);
    expect(out.stderr()).toBe('');
  });

  it('explains a taken port in one line with no stack trace, exiting 1', async () => {
    const first = runCli(['serve', '--db', join(dir, 'a.sqlite'), '--port', '0']);
    const firstOut = output(first);
    const [, port] = await waitFor(() => firstOut.stdout().match(/127\.0\.0\.1:(\d+)\/api/));
    const second = runCli(['serve', '--db', join(dir, 'b.sqlite'), '--port', port]);
    const secondOut = output(second);
    expect(await secondOut.exit).toBe(1);
    expect(secondOut.stderr().trim().split('\n')).toEqual([
      `quire: Port ${port} is already in use on 127.0.0.1; pass --port with another number, or --port 0 for a free one.`,
    ]);
    first.kill('SIGTERM');
    await firstOut.exit;
  });

  it('explains a bad flag in one line, exiting 2', async () => {
    const out = output(runCli(['serve', '--port', 'many']));
    expect(await out.exit).toBe(2);
    expect(out.stderr().trim()).toBe('quire: --port must be a whole number from 0 to 65535 (0 picks a free port)');
  });
});

describe('quire with its output closed', () => {
  it('drops what it cannot write and ends with its own exit code, no stack trace', async () => {
    // `quire types | head -0`: the reader is gone before the command writes.
    const child = runCli(['types', '--db', join(dir, 'types-closed.sqlite')]);
    child.stdout?.destroy();
    const { stderr, exit } = output(child);
    expect(await exit).toBe(0);
    expect(stderr()).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
  });
});
