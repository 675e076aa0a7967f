import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EDITOR_OPEN_PREFIX, EXIT_REPORTED_FAILURE } from '../electron/main/desktop-signals.js';
import { settingsFile } from '../electron/main/settings-store.js';
import { REBUILD_COMMAND } from '../electron/server-child/server-child.js';
import { EDITOR_CONTENT_SECURITY_POLICY } from '../server/http/editor-headers.js';
import { spawnWatched, type WatchedProcess } from './support/watched-process.js';

/**
 * The real main process (dist/electron/main/main.js: lifecycle, settings, menu, security guards,
 * the server child in its own process) run under Node, with `electron` resolved to a stand-in
 * (e2e/support/electron-stand-in/). It checks the wiring where no Electron binary exists; the
 * window itself, Chromium's sandbox and the editor in it are for e2e/electron-app.test.ts.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const register = join(root, 'e2e', 'support', 'electron-stand-in', 'register.mjs');
const OPEN = new RegExp(
  `^${EDITOR_OPEN_PREFIX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(http://127\\.0\\.0\\.1:\\d+)/ \\(database (.+)\\)$`,
  'm',
);

/** The main process can take a while: it may build the editor first. */
const MAIN_TIMEOUT_MS = 120_000;

function runMain(args: string[], env: NodeJS.ProcessEnv): WatchedProcess {
  return spawnWatched(['--import', register, join(root, 'dist', 'electron', 'main', 'main.js'), ...args], {
    cwd: root,
    env,
    defaultTimeoutMs: MAIN_TIMEOUT_MS,
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function newsTitles(origin: string): Promise<string[]> {
  const body = (await (await fetch(`${origin}/api/cms/news`)).json()) as { rows: { title: string }[] };
  return body.rows.map((row) => row.title);
}

describe('the desktop main process, under Node with a stand-in for Electron', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let running: WatchedProcess | null = null;

  beforeAll(() => {
    const result = spawn(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], {
      cwd: root,
      stdio: 'inherit',
    });
    return new Promise<void>((resolve, reject) =>
      result.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build failed (${code})`)))),
    );
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-main-'));
    // A packaged app's resources folder holding the SQLite addon for this runtime (here: Node's).
    mkdirSync(join(dir, 'resources', 'native'), { recursive: true });
    copyFileSync(
      join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
      join(dir, 'resources', 'native', 'better_sqlite3.node'),
    );
    env = {
      ...process.env,
      QUIRE_USER_DATA_DIR: join(dir, 'user-data'),
      STAND_IN_PACKAGED: '1',
      STAND_IN_APP_PATH: root,
      STAND_IN_RESOURCES: join(dir, 'resources'),
    };
    delete env.QUIRE_DB;
    delete env.QUIRE_PORT;
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    running = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the database from a child process, shows it in a guarded window, and stops both on quit', async () => {
    const port = await freePort();
    mkdirSync(join(dir, 'user-data'));
    writeFileSync(settingsFile(join(dir, 'user-data')), JSON.stringify({ port }));

    running = runMain([], env);
    const [, origin, dbFile] = await running.waitFor(OPEN);
    expect(origin).toBe(`http://127.0.0.1:${port}`);
    expect(dbFile).toBe(join(dir, 'user-data', 'content.sqlite'));
    await running.waitFor(/^stand-in: window\.open: /m);
    const output = running.output();
    expect(output).toContain('stand-in: sandbox enabled for all renderers');
    expect(output).toContain('stand-in: permission requests denied');
    expect(output).toMatch(/stand-in: window \{"contextIsolation":true,"sandbox":true,"nodeIntegration":false/);
    expect(output).toContain(`stand-in: window loaded ${origin}/ (200, ${EDITOR_CONTENT_SECURITY_POLICY})`);
    expect(output).toContain('stand-in: window.open: deny; navigation away prevented: true');
    expect(output).toContain('stand-in: menu &File &Edit &View &Help');
    // The server child runs its one-file bundle (with V8's code cache kept in the user-data folder).
    expect(output).toContain(
      `stand-in: utility process ${join(root, 'dist', 'electron', 'server-child', 'server-child-bundle-main.js')}`,
    );

    const created = await fetch(`${origin}/api/cms/news`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        title: 'Kept by the desktop app',
        status: 'draft',
        published_at: '2025-01-02 03:04:05',
      }),
    });
    expect(created.status).toBe(201);

    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.output()).toContain('stand-in: quit');
    await expect(fetch(`${origin}/api/cms/news`)).rejects.toThrow();
    expect(JSON.parse(readFileSync(settingsFile(join(dir, 'user-data')), 'utf8'))).toMatchObject({
      lastDatabase: dbFile,
      recentDatabases: [dbFile],
      port,
    });

    running = runMain([], env);
    const [, againOrigin] = await running.waitFor(OPEN);
    expect(againOrigin).toBe(origin);
    expect(await newsTitles(origin)).toEqual(['Kept by the desktop app']);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('opens the --db file, and tells in a dialog when it is not a database, then exits', async () => {
    const text = join(dir, 'notes.db');
    writeFileSync(text, 'not a database '.repeat(100));
    running = runMain(['--db', text, '--port', '0'], env);
    expect(await running.exited).toBe(EXIT_REPORTED_FAILURE);
    expect(running.output()).toContain(
      `stand-in: error dialog: Quire could not start: ${text} is not a Quire database (not a SQLite file).`,
    );
    expect(running.output()).not.toMatch(/^\s+at /m);
  });

  it('names the rebuild command when the SQLite module for Electron is missing', async () => {
    rmSync(join(dir, 'resources', 'native'), { recursive: true });
    running = runMain(['--port', '0'], env);
    expect(await running.exited).toBe(EXIT_REPORTED_FAILURE);
    expect(running.output()).toContain(
      `stand-in: error dialog: Quire could not start: The SQLite module for Electron is missing; run ${REBUILD_COMMAND}`,
    );
  });
});
