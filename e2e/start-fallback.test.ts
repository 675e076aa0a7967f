import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEADLESS_REASONS } from '../electron/launcher/launch-decision.js';
import { EDITOR_CONTENT_SECURITY_POLICY } from '../server/http/editor-headers.js';
import { spawnWatched, type WatchedProcess } from './support/watched-process.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** `npm start` builds first when sources changed since the last build: allow for tsc and vite. */
const START_TIMEOUT_MS = 240_000;
const FALLBACK =
  /^Quire: the desktop window is not available here \((.+)\); serving the editor at (http:\/\/127\.0\.0\.1:\d+\/) instead\.$/m;

function launch(command: string[], env: NodeJS.ProcessEnv): WatchedProcess {
  return spawnWatched(command, { cwd: root, env, defaultTimeoutMs: START_TIMEOUT_MS - 10_000 });
}

/** Creates a row through the API and reads it back, as a site build would. */
async function roundTrip(editorUrl: string): Promise<void> {
  const created = await fetch(`${editorUrl}api/cms/news`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      title: 'Served without a window',
      status: 'draft',
      published_at: '2025-01-02 03:04:05',
    }),
  });
  expect(created.status).toBe(201);
  const list = (await (await fetch(`${editorUrl}api/cms/news`)).json()) as { rows: { title: string }[] };
  expect(list.rows.map((row) => row.title)).toEqual(['Served without a window']);
}

async function expectEditorPage(editorUrl: string): Promise<void> {
  const page = await fetch(editorUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(page.headers.get('content-security-policy')).toBe(EDITOR_CONTENT_SECURITY_POLICY);
  expect(await page.text()).toMatch(/<script[^>]+type="module"/);
}

describe('npm start where Electron cannot start', () => {
  let dir: string;
  let running: WatchedProcess | null = null;
  let env: NodeJS.ProcessEnv;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-start-'));
    // A display, so that on Linux the Electron binary is the one thing missing (as on a desktop).
    env = { ...process.env, QUIRE_USER_DATA_DIR: join(dir, 'user-data'), DISPLAY: ':99' };
    delete env.WAYLAND_DISPLAY;
    delete env.QUIRE_DB;
    delete env.QUIRE_PORT;
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGTERM');
      await running.exited;
    }
    running = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'serves a working editor and API with one line saying why, and stops on SIGTERM',
    async () => {
      // An empty override folder: no Electron binary, on any machine (this one has none anyway).
      mkdirSync(join(dir, 'no-electron'));
      const dbFile = join(dir, 'content.sqlite');
      running = launch([join(root, 'scripts', 'start.mjs'), '--db', dbFile, '--port', '0'], {
        ...env,
        ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-electron'),
      });
      const [line, reason, editorUrl] = await running.waitFor(FALLBACK);
      expect(reason).toBe(HEADLESS_REASONS.binaryMissing);
      expect(running.output()).toContain(`(database ${dbFile})`);

      await expectEditorPage(editorUrl);
      await expectEditorPage(`${editorUrl}news`);
      await roundTrip(editorUrl);

      running.child.kill('SIGTERM');
      expect(await running.exited).toBe(0);
      const lines = running.output().trim().split('\n');
      expect(lines.filter((text) => text.startsWith('Quire: the desktop window'))).toEqual([line]);
      expect(running.output()).not.toMatch(/^\s+at /m);
      await expect(fetch(`${editorUrl}api/cms/news`)).rejects.toThrow();
    },
    START_TIMEOUT_MS,
  );

  it(
    'serves content.sqlite in the user-data folder when no database is named or remembered',
    async () => {
      mkdirSync(join(dir, 'no-electron'));
      running = launch([join(root, 'scripts', 'start.mjs'), '--port', '0'], {
        ...env,
        ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-electron'),
      });
      const [, , editorUrl] = await running.waitFor(FALLBACK);
      expect(running.output()).toContain(`(database ${join(dir, 'user-data', 'content.sqlite')})`);
      await roundTrip(editorUrl);
    },
    START_TIMEOUT_MS,
  );

  it(
    'opens the database the desktop app used last when no --db is given',
    async () => {
      const lastUsed = join(dir, 'sites', 'blog.sqlite');
      mkdirSync(join(dir, 'sites'));
      mkdirSync(join(dir, 'user-data'));
      writeFileSync(
        join(dir, 'user-data', 'settings.json'),
        JSON.stringify({ lastDatabase: lastUsed, recentDatabases: [lastUsed], window: null, port: null }),
      );
      writeFileSync(lastUsed, '');
      mkdirSync(join(dir, 'no-electron'));
      running = launch([join(root, 'scripts', 'start.mjs'), '--port', '0'], {
        ...env,
        ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-electron'),
      });
      const [, , editorUrl] = await running.waitFor(FALLBACK);
      expect(running.output()).toContain(`(database ${lastUsed})`);
      await roundTrip(editorUrl);
    },
    START_TIMEOUT_MS,
  );

  /**
   * A checkout whose Electron is a stand-in that dies at once, as a real one does without its
   * system libraries; with or without an Electron build of the SQLite addon.
   */
  function fakeCheckout(options: { addonBuilt: boolean; binary?: boolean }): string {
    const fakeRoot = join(dir, 'checkout');
    const electronDir = join(fakeRoot, 'node_modules', 'electron');
    const sqliteDir = join(fakeRoot, 'node_modules', 'better-sqlite3');
    const versionOf = (name: string) =>
      JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;
    const versions = { electron: versionOf('electron'), betterSqlite3: versionOf('better-sqlite3') };
    mkdirSync(sqliteDir, { recursive: true });
    writeFileSync(join(sqliteDir, 'package.json'), JSON.stringify({ version: versions.betterSqlite3 }));
    const binary = join(
      electronDir,
      'dist',
      process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron',
    );
    mkdirSync(join(binary, '..'), { recursive: true });
    writeFileSync(join(electronDir, 'package.json'), JSON.stringify({ version: versions.electron }));
    // Where the binary was never downloaded, the package's own installer is there, failing as offline.
    writeFileSync(join(electronDir, 'install.js'), 'console.error("fetch failed"); process.exit(1);\n');
    if (options.binary !== false) {
      writeFileSync(
        binary,
        '#!/bin/sh\necho "electron: error while loading shared libraries: libnss3.so" >&2\nexit 1\n',
      );
      chmodSync(binary, 0o755);
    }
    if (options.addonBuilt) {
      mkdirSync(join(fakeRoot, 'native', 'electron'), { recursive: true });
      writeFileSync(join(fakeRoot, 'native', 'electron', 'better_sqlite3.node'), '');
      writeFileSync(
        join(fakeRoot, 'native', 'electron', 'build-info.json'),
        JSON.stringify({ ...versions, platform: process.platform, arch: process.arch }),
      );
    }
    return fakeRoot;
  }

  /** The built launcher run on another checkout folder, as scripts/start.mjs runs it on this one. */
  function startIn(fakeRoot: string): WatchedProcess {
    const launcher = pathToFileURL(join(root, 'dist', 'electron', 'launcher', 'start-launcher.js')).href;
    const script = `const { runStart } = await import(${JSON.stringify(launcher)}); await runStart(${JSON.stringify(fakeRoot)}, process.argv.slice(1));`;
    return launch(['--input-type=module', '-e', script, '--', '--db', join(dir, 'content.sqlite'), '--port', '0'], env);
  }

  const onWindows = process.platform === 'win32';
  const unlessWindows = onWindows ? ' (skipped on Windows: the stand-in Electron is a shell script)' : '';

  it.skipIf(onWindows)(`falls back when Electron exits before opening its window${unlessWindows}`, async () => {
    running = startIn(fakeCheckout({ addonBuilt: true }));
    const [, reason, editorUrl] = await running.waitFor(FALLBACK);
    expect(reason).toBe('Electron exited with code 1 before opening a window');
    expect(running.output()).toContain('libnss3.so');
    await roundTrip(editorUrl);
  });

  it('tries to download a missing Electron binary, and falls back saying the download failed', async () => {
    running = startIn(fakeCheckout({ addonBuilt: true, binary: false }));
    const [, reason, editorUrl] = await running.waitFor(FALLBACK);
    expect(reason).toBe(HEADLESS_REASONS.downloadFailed);
    expect(running.output()).toContain('Quire: downloading Electron for the desktop window (first start only)...');
    expect(running.output()).not.toContain('fetch failed');
    await roundTrip(editorUrl);
  });

  it.skipIf(onWindows)(`falls back when the SQLite module for Electron cannot be built${unlessWindows}`, async () => {
    // The stand-in checkout has no rebuild script, so building the addon fails, as offline.
    running = startIn(fakeCheckout({ addonBuilt: false }));
    const [, reason, editorUrl] = await running.waitFor(FALLBACK);
    expect(reason).toBe(HEADLESS_REASONS.addonBuildFailed);
    expect(running.output()).toContain('Quire: building the SQLite module for Electron');
    expect(running.output()).not.toContain('libnss3.so');
    await roundTrip(editorUrl);
  });
});
