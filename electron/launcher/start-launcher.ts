import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DATABASE_FILE_NAME, userDataDir } from '../../server/config/app-paths.js';
import { DEFAULT_PORT } from '../../server/config/listen-defaults.js';
import { resolveStartupDatabase } from '../main/database-path.js';
import { EDITOR_OPEN_PREFIX } from '../main/desktop-signals.js';
import { choosePort, startOnFirstFreePort } from '../main/port-choice.js';
import { loadSettings, resolveUserDataDir, settingsFile } from '../main/settings-store.js';
import { checkoutAddonStatus } from './electron-addon-build.js';
import {
  afterDesktopExit,
  decideLaunch,
  fallbackLine,
  findElectronBinary,
  HEADLESS_REASONS,
  shouldDownloadElectron,
} from './launch-decision.js';

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Runs a Node script (the Electron download, the addon build) with its output kept out of the
 * terminal: on failure the fallback line names the command that shows it. True when it succeeded.
 */
function runQuietly(root: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

/**
 * Runs the desktop app from the checkout and waits for it to end. Its output is passed through;
 * the "editor open" line tells the launcher that the window came up.
 */
function runDesktop(electronBinary: string, root: string, args: string[]) {
  const env = { ...process.env };
  // Set by some tools for Electron-as-Node; it would keep the app from being an app.
  delete env.ELECTRON_RUN_AS_NODE;
  return new Promise<ReturnType<typeof afterDesktopExit>>((resolve) => {
    const child = spawn(electronBinary, [root, ...args], {
      cwd: process.cwd(),
      env,
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    let editorOpened = false;
    let interrupted = false;
    let recent = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      recent = (recent + chunk.toString('utf8')).slice(-4096);
      if (recent.includes(EDITOR_OPEN_PREFIX)) editorOpened = true;
    });
    const forward = (signal: NodeJS.Signals) => {
      interrupted = true;
      child.kill(signal);
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const done = (result: ReturnType<typeof afterDesktopExit>) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(result);
    };
    child.once('error', (error: NodeJS.ErrnoException) =>
      done({ fallback: true, reason: `Electron could not be started (${error.code ?? error.message})` }),
    );
    child.once('exit', (code, signal) => done(afterDesktopExit({ code, signal, editorOpened, interrupted })));
  });
}

/**
 * The headless fallback: the same server `npm run serve` runs (its options, output and Ctrl+C
 * handling), over the database and port the desktop app would use, then the one explaining line.
 */
async function runHeadless(reason: string, args: string[]): Promise<void> {
  const { serve, explainStartError } = await import('../../server/cli-commands.js');
  const { readQuireConfig, UsageError } = await import('../../server/config/quire-config.js');
  let options: ReturnType<typeof readQuireConfig>;
  try {
    options = readQuireConfig(args, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`quire: ${error.message}`);
    process.exitCode = 2;
    return;
  }
  const { values } = parseArgs({ args, strict: false, options: { db: { type: 'string' }, port: { type: 'string' } } });
  // The desktop app's folder (QUIRE_USER_DATA_DIR honoured), its settings and default database.
  const userData = resolveUserDataDir(process.env, userDataDir(process.platform, process.env));
  const settings = loadSettings(settingsFile(userData)).settings;
  const dbGiven = values.db !== undefined || Boolean(process.env.QUIRE_DB?.trim());
  const portGiven = values.port !== undefined || Boolean(process.env.QUIRE_PORT?.trim());
  const database = dbGiven
    ? null
    : resolveStartupDatabase({
        lastDatabase: settings.lastDatabase,
        defaultFile: join(userData, DATABASE_FILE_NAME),
        cwd: process.cwd(),
        exists: existsSync,
      });
  const dbFile = database?.file ?? options.dbFile;
  const choice = portGiven
    ? { port: options.port, source: 'argument' as const }
    : choosePort({ rememberedPort: settings.port, defaultPort: DEFAULT_PORT });
  try {
    const server = await startOnFirstFreePort(choice, (port) => serve({ ...options, dbFile, port }));
    if (database?.notice) console.log(`Quire: ${database.notice}`);
    console.log(fallbackLine(reason, `${server.origin}/`));
  } catch (error) {
    console.error(`quire: ${explainStartError(error, { ...options, dbFile, port: choice.port })}`);
    process.exitCode = 1;
  }
}

/**
 * `npm start`: the desktop app when Electron can run here (fetching its binary and building its
 * SQLite module first when needed), otherwise, or when Electron fails before its window opens, the headless server with one
 * line saying why. `args` are passed on (`--db`, `--port`, and for the fallback every `serve` option).
 */
export async function runStart(root: string, args: string[]): Promise<void> {
  const packageDir = existsSync(join(root, 'node_modules', 'electron', 'package.json'))
    ? join(root, 'node_modules', 'electron')
    : null;
  const lookup = { packageDir, platform: process.platform, env: process.env, exists: existsSync, readText };
  let electronBinary = findElectronBinary(lookup);
  let downloadFailed = false;
  if (packageDir && shouldDownloadElectron({ ...lookup, electronBinary })) {
    console.log('Quire: downloading Electron for the desktop window (first start only)...');
    await runQuietly(root, [join(packageDir, 'install.js')]);
    electronBinary = findElectronBinary(lookup);
    downloadFailed = electronBinary === null;
  }
  const decision = decideLaunch({ platform: process.platform, env: process.env, electronBinary, downloadFailed });
  if (decision.mode === 'headless') return runHeadless(decision.reason, args);

  if (checkoutAddonStatus(root) !== 'ready') {
    console.log('Quire: building the SQLite module for Electron (first start, or after an upgrade)...');
    const built = await runQuietly(root, [join(root, 'scripts', 'rebuild-electron.mjs')]);
    if (!built) return runHeadless(HEADLESS_REASONS.addonBuildFailed, args);
  }
  const outcome = await runDesktop(decision.electronBinary, root, args);
  if (outcome.fallback) return runHeadless(outcome.reason, args);
  process.exitCode = outcome.exitCode;
}
