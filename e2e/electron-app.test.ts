import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectronAddon, checkoutAddonStatus } from '../electron/launcher/electron-addon-build.js';
import { displayAvailable, findElectronBinary, shouldDownloadElectron } from '../electron/launcher/launch-decision.js';
import { settingsFile } from '../electron/main/settings-store.js';
import { chooseOption } from './support/ui-controls.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const packageDir = existsSync(join(root, 'node_modules', 'electron', 'package.json'))
  ? join(root, 'node_modules', 'electron')
  : null;
const lookup = {
  packageDir,
  platform: process.platform,
  env: process.env,
  exists: existsSync,
  readText: (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null),
};
// As `npm start` does: fetch the binary npm did not download at install time, where it could run.
if (packageDir && shouldDownloadElectron({ ...lookup, electronBinary: findElectronBinary(lookup) })) {
  spawnSync(process.execPath, [join(packageDir, 'install.js')], { stdio: 'ignore', timeout: 600_000 });
}
const electronBinary = findElectronBinary(lookup);

/** Why this machine cannot run the desktop app, or null when it can. */
const skipReason = !electronBinary
  ? 'no Electron binary: node_modules/electron/dist is missing and could not be downloaded here'
  : !displayAvailable(process.platform, process.env)
    ? 'no display (run under xvfb-run on Linux)'
    : null;

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

describe.skipIf(skipReason !== null)(`the desktop app${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let userData: string;
  let app: ElectronApplication | null = null;
  const title = `Written in the desktop app ${Date.now()}`;

  /** Starts the app from the checkout on a throwaway user-data folder (and so database). */
  async function launch(): Promise<{ app: ElectronApplication; page: Page }> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && name !== 'ELECTRON_RUN_AS_NODE') env[name] = value;
    }
    app = await _electron.launch({
      executablePath: electronBinary!,
      args: [root, '--port', '0'],
      cwd: root,
      env: { ...env, QUIRE_USER_DATA_DIR: userData },
      timeout: 60_000,
    });
    const page = await app.firstWindow();
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\//, { timeout: 60_000 });
    return { app, page };
  }

  async function quit(): Promise<void> {
    await app?.close();
    app = null;
  }

  beforeAll(async () => {
    userData = mkdtempSync(join(tmpdir(), 'quire-desktop-e2e-'));
    // What `npm start` does before opening the app: the SQLite addon built for this Electron.
    if (checkoutAddonStatus(root) !== 'ready') await buildElectronAddon(root);
  });
  afterAll(async () => {
    await quit();
    rmSync(userData, { recursive: true, force: true });
  });

  it('opens the editor in a window where the page has no Node and cannot open windows', async () => {
    const { app, page } = await launch();
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    // window.open never makes a window; a file: URL is not handed to the OS either.
    const opened = await page.evaluate(() =>
      (globalThis as unknown as { open(url: string): unknown }).open('file:///etc/hosts'),
    );
    expect(opened).toBeNull();
    expect(app.windows()).toHaveLength(1);
    await quit();
  });

  it('keeps a row created in the editor across a quit and a relaunch', async () => {
    let { page } = await launch();
    await page.getByRole('link', { name: 'News' }).click();
    await page.waitForURL(/\/news$/);
    await button(page, 'New').click();
    await page.waitForURL('**/news/new');
    await field(page, 'Title').fill(title);
    await chooseOption(field(page, 'Status'), 'Published');
    await field(page, 'Published at').fill('2025-03-04T10:20:30');
    await button(page, 'Save').click();
    await page.waitForURL(/\/news\/rows\/[^/?]+$/);
    await quit();

    const settings = JSON.parse(readFileSync(settingsFile(userData), 'utf8'));
    expect(settings.lastDatabase).toBe(join(userData, 'content.sqlite'));

    ({ page } = await launch());
    await page.getByRole('link', { name: 'News' }).click();
    await page.getByRole('row', { name: new RegExp(title) }).waitFor();
    const origin = new URL(page.url()).origin;
    const search = await fetch(`${origin}/api/cms/news?filter=${encodeURIComponent(`search=${title}`)}`);
    const body = (await search.json()) as { rows: { title: string; status: string }[] };
    expect(body.rows).toEqual([expect.objectContaining({ title, status: 'published' })]);
    await quit();
  });
});
