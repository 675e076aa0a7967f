import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InProcessServerChild } from '../test-support/in-process-server-child.js';
import { DesktopApp, type DesktopConfig, type DesktopHost } from './desktop-app.js';
import { EDITOR_OPEN_PREFIX } from './desktop-signals.js';
import { launchServerChild } from './server-launcher.js';
import { loadSettings, SettingsStore, settingsFile } from './settings-store.js';

/** The OS as a script: dialogs answer from queues, everything else is recorded. */
class FakeHost implements DesktopHost {
  readonly children: InProcessServerChild[] = [];
  readonly shown: { origin: string; dbFile: string }[] = [];
  readonly errors: string[] = [];
  readonly notices: string[] = [];
  readonly copied: string[] = [];
  readonly opened: string[] = [];
  readonly revealed: string[] = [];
  readonly logs: string[] = [];
  menu: MenuItemConstructorOptions[] = [];
  newDatabaseAnswers: (string | null)[] = [];
  openDatabaseAnswers: (string | null)[] = [];

  launchServer: DesktopHost['launchServer'] = (options) =>
    launchServerChild(() => {
      const child = new InProcessServerChild();
      this.children.push(child);
      return child;
    }, options);
  showEditor(origin: string, dbFile: string) {
    this.shown.push({ origin, dbFile });
  }
  setMenu(template: MenuItemConstructorOptions[]) {
    this.menu = template;
  }
  async askNewDatabaseFile() {
    return this.newDatabaseAnswers.shift() ?? null;
  }
  async askExistingDatabaseFile() {
    return this.openDatabaseAnswers.shift() ?? null;
  }
  showError(title: string, message: string) {
    this.errors.push(`${title}: ${message}`);
  }
  showNotice(_title: string, message: string) {
    this.notices.push(message);
  }
  showInFolder(file: string) {
    this.revealed.push(file);
  }
  copyText(text: string) {
    this.copied.push(text);
  }
  openExternally(url: string) {
    this.opened.push(url);
  }
  fileExists(file: string) {
    return existsSync(file);
  }
  log(line: string) {
    this.logs.push(line);
  }
  /** Labels of File > Open Recent. */
  recentMenu(): string[] {
    const file = this.menu.find((item) => item.label === '&File')?.submenu as MenuItemConstructorOptions[];
    const recent = file.find((item) => item.label === 'Open Recent')?.submenu as MenuItemConstructorOptions[];
    return recent.map((item) => item.label ?? '-');
  }
}

async function newsTitles(origin: string): Promise<string[]> {
  const body = (await (await fetch(`${origin}/api/cms/news`)).json()) as { rows: { title: string }[] };
  return body.rows.map((row) => row.title);
}

async function createNews(origin: string, title: string): Promise<void> {
  const response = await fetch(`${origin}/api/cms/news`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ title, status: 'draft', published_at: '2024-05-01 10:00:00' }),
  });
  expect(response.status).toBe(201);
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('desktop app', () => {
  let dir: string;
  let host: FakeHost;
  let config: DesktopConfig;
  const apps: DesktopApp[] = [];
  const store = () => new SettingsStore(settingsFile(dir));
  const desktop = (overrides: Partial<DesktopConfig> = {}) => {
    const app = new DesktopApp(host, store(), { ...config, ...overrides });
    apps.push(app);
    return app;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-desktop-'));
    host = new FakeHost();
    config = {
      platform: 'linux',
      isDevelopment: false,
      cwd: dir,
      defaultDatabaseFile: join(dir, 'content.sqlite'),
      defaultPort: await freePort(),
      host: '127.0.0.1',
      editorName: 'ana',
      editorDir: null,
      apiDocsUrl: 'https://example.com/quire#api',
    };
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the default database and shows the editor on first start', async () => {
    const app = desktop();
    expect(await app.start()).toBe(true);
    expect(host.shown).toEqual([
      { origin: `http://127.0.0.1:${config.defaultPort}`, dbFile: config.defaultDatabaseFile },
    ]);
    expect(await newsTitles(app.origin!)).toEqual([]);
    expect(host.logs).toEqual([
      `${EDITOR_OPEN_PREFIX}http://127.0.0.1:${config.defaultPort}/ (database ${config.defaultDatabaseFile})`,
    ]);
    expect(loadSettings(settingsFile(dir)).settings).toMatchObject({
      lastDatabase: config.defaultDatabaseFile,
      recentDatabases: [config.defaultDatabaseFile],
      port: config.defaultPort,
    });
  });

  it('reopens the last database on the remembered port, with its rows', async () => {
    const first = desktop();
    await first.start();
    await createNews(first.origin!, 'Survives a restart');
    const origin = first.origin;
    await first.stop();

    const second = desktop({ defaultPort: 1 });
    await second.start();
    expect(second.origin).toBe(origin);
    expect(await newsTitles(second.origin!)).toEqual(['Survives a restart']);
  });

  it('moves to a free port when its port is taken, and remembers the new one', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(config.defaultPort, '127.0.0.1', resolve));
    try {
      const app = desktop();
      expect(await app.start()).toBe(true);
      const port = Number(new URL(app.origin!).port);
      expect(port).not.toBe(config.defaultPort);
      expect(loadSettings(settingsFile(dir)).settings.port).toBe(port);
    } finally {
      blocker.close();
    }
  });

  it('reports a taken --port in a dialog instead of choosing another', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(config.defaultPort, '127.0.0.1', resolve));
    try {
      const app = desktop({ argPort: config.defaultPort });
      expect(await app.start()).toBe(false);
      expect(host.errors).toEqual([
        `Quire could not start: Port ${config.defaultPort} is already in use on 127.0.0.1; pass --port with another number, or --port 0 for a free one.`,
      ]);
      expect(host.shown).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it('opens the default database and says so when the last one has disappeared', async () => {
    const gone = join(dir, 'usb-stick', 'site.sqlite');
    store().update((settings) => ({ ...settings, lastDatabase: gone, recentDatabases: [gone] }));
    const app = desktop();
    await app.start();
    expect(app.databaseFile).toBe(config.defaultDatabaseFile);
    expect(existsSync(gone)).toBe(false);
    expect(host.notices).toEqual([
      `The last database, ${gone}, was not found; Quire opened ${config.defaultDatabaseFile} instead.`,
    ]);
  });

  it('New Database creates an empty database on the same address and lists it first in Open Recent', async () => {
    const app = desktop();
    await app.start();
    await createNews(app.origin!, 'In the first database');
    const origin = app.origin;
    host.newDatabaseAnswers.push(join(dir, 'second'));
    app.actions.newDatabase();
    await app.whenIdle();
    expect(app.databaseFile).toBe(join(dir, 'second.sqlite'));
    expect(app.origin).toBe(origin);
    expect(await newsTitles(app.origin!)).toEqual([]);
    expect(host.recentMenu()).toEqual([join(dir, 'second.sqlite'), config.defaultDatabaseFile, '-', 'Clear Recent']);
    expect(host.shown.at(-1)).toEqual({ origin, dbFile: join(dir, 'second.sqlite') });
  });

  it('New Database never replaces an existing file', async () => {
    const app = desktop();
    await app.start();
    const existing = join(dir, 'notes.sqlite');
    writeFileSync(existing, 'precious');
    host.newDatabaseAnswers.push(existing);
    app.actions.newDatabase();
    await app.whenIdle();
    expect(app.databaseFile).toBe(config.defaultDatabaseFile);
    expect(host.errors[0]).toMatch(/already exists and Quire never replaces a file/);
  });

  it('Open Database switches to the chosen file; Open Recent switches back', async () => {
    const app = desktop();
    await app.start();
    await createNews(app.origin!, 'Default');
    const other = join(dir, 'other.sqlite');
    host.openDatabaseAnswers.push(other);
    app.actions.openDatabase();
    await app.whenIdle();
    expect(app.databaseFile).toBe(other);
    await createNews(app.origin!, 'Other');

    app.actions.openRecent(config.defaultDatabaseFile);
    await app.whenIdle();
    expect(await newsTitles(app.origin!)).toEqual(['Default']);
    expect(loadSettings(settingsFile(dir)).settings.lastDatabase).toBe(config.defaultDatabaseFile);
  });

  it('goes back to the previous database when the chosen file is not a database', async () => {
    const app = desktop();
    await app.start();
    await createNews(app.origin!, 'Still here');
    const text = join(dir, 'readme.db');
    writeFileSync(text, 'this is not a database '.repeat(100));
    await app.openDatabase(text);
    expect(host.errors).toEqual([`Could not open the database: ${text} is not a Quire database (not a SQLite file).`]);
    expect(app.databaseFile).toBe(config.defaultDatabaseFile);
    expect(await newsTitles(app.origin!)).toEqual(['Still here']);
  });

  it('drops a recent database that was deleted, and tells why', async () => {
    const gone = join(dir, 'gone.sqlite');
    store().update((settings) => ({ ...settings, recentDatabases: [gone] }));
    const app = desktop();
    await app.start();
    expect(host.recentMenu()).toEqual([config.defaultDatabaseFile, gone, '-', 'Clear Recent']);
    app.actions.openRecent(gone);
    await app.whenIdle();
    expect(host.errors).toEqual([`Database not found: ${gone} was moved or deleted; it is removed from Open Recent.`]);
    expect(host.recentMenu()).toEqual([config.defaultDatabaseFile, '-', 'Clear Recent']);
    expect(app.databaseFile).toBe(config.defaultDatabaseFile);
  });

  it('Clear Recent empties the list, in the menu and in the settings', async () => {
    const app = desktop();
    await app.start();
    app.actions.clearRecent();
    expect(host.recentMenu()).toEqual(['No Recent Databases']);
    expect(loadSettings(settingsFile(dir)).settings.recentDatabases).toEqual([]);
  });

  it('copies the API URL, reveals the database, opens the API documentation', async () => {
    const app = desktop();
    await app.start();
    app.actions.copyApiUrl();
    app.actions.showDatabaseInFolder();
    app.actions.openApiDocs();
    expect(host.copied).toEqual([`${app.origin}/api`]);
    expect(host.revealed).toEqual([config.defaultDatabaseFile]);
    expect(host.opened).toEqual(['https://example.com/quire#api']);
  });

  it('restarts the server after a crash, on the same address and database', async () => {
    const app = desktop();
    await app.start();
    await createNews(app.origin!, 'Before the crash');
    const origin = app.origin;
    host.children[0].kill();
    await new Promise<void>((resolve) => {
      const check = () => (host.children.length === 2 && app.origin ? resolve() : setTimeout(check, 10));
      check();
    });
    expect(app.origin).toBe(origin);
    expect(await newsTitles(app.origin!)).toEqual(['Before the crash']);
    expect(host.logs).toContain('Quire: the server stopped unexpectedly (exit code -1); restarting it.');
  });

  it('stops the server when the app quits', async () => {
    const app = desktop();
    await app.start();
    const origin = app.origin;
    await app.stop();
    expect(host.children[0].received.at(-1)).toEqual({ type: 'stopped' });
    expect(app.origin).toBeNull();
    await expect(fetch(`${origin}/api/cms/news`)).rejects.toThrow();
  });
});
