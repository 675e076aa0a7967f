import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DesktopSettings,
  defaultSettings,
  forgetRecentDatabase,
  loadSettings,
  MAX_RECENT_DATABASES,
  rememberDatabase,
  resolveUserDataDir,
  SettingsStore,
  sanitizeSettings,
  saveSettings,
  settingsFile,
} from './settings-store.js';

describe('settings file', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-settings-'));
    file = settingsFile(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const saved: DesktopSettings = {
    window: { x: 40, y: 60, width: 1200, height: 800, maximized: true },
    lastDatabase: '/home/ana/sites/blog.sqlite',
    recentDatabases: ['/home/ana/sites/blog.sqlite', '/home/ana/content.sqlite'],
    port: 4781,
  };

  it('gives the defaults on first run', () => {
    expect(loadSettings(file)).toEqual({ settings: defaultSettings(), movedAside: null });
  });

  it('reads back what it saved', () => {
    saveSettings(file, saved);
    expect(loadSettings(file)).toEqual({ settings: saved, movedAside: null });
  });

  it('saves by renaming a complete file into place, leaving no temporary file', () => {
    saveSettings(file, saved);
    saveSettings(file, { ...saved, port: 4790 });
    expect(readdirSync(dir)).toEqual(['settings.json']);
    expect(JSON.parse(readFileSync(file, 'utf8')).port).toBe(4790);
  });

  it('creates the user-data folder when it is missing', () => {
    const nested = settingsFile(join(dir, 'Quire'));
    saveSettings(nested, saved);
    expect(loadSettings(nested).settings).toEqual(saved);
  });

  it('moves a corrupt file aside and starts from the defaults', () => {
    writeFileSync(file, '{"window": {"width": 12');
    const loaded = loadSettings(file, () => new Date('2025-01-02T03:04:05.678Z'));
    expect(loaded.settings).toEqual(defaultSettings());
    expect(loaded.movedAside).toBe(`${file}.corrupt-2025-01-02T03-04-05-678Z`);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(loaded.movedAside!, 'utf8')).toBe('{"window": {"width": 12');
  });

  it('keeps the good fields of a file with some bad ones', () => {
    writeFileSync(
      file,
      JSON.stringify({
        window: { width: 'wide', height: 800 },
        lastDatabase: 'relative/path.sqlite',
        recentDatabases: ['/a.sqlite', 7, '/a.sqlite', '', '/b.sqlite'],
        port: 70000,
        unknown: true,
      }),
    );
    expect(loadSettings(file).settings).toEqual({
      window: null,
      lastDatabase: null,
      recentDatabases: ['/a.sqlite', '/b.sqlite'],
      port: null,
    });
  });

  it('treats JSON that is not an object as no settings', () => {
    for (const raw of [null, 42, 'text', ['/a.sqlite']]) expect(sanitizeSettings(raw)).toEqual(defaultSettings());
  });

  it('drops a window position that is not a pair of numbers but keeps the size', () => {
    expect(sanitizeSettings({ window: { x: 10, width: 900.4, height: 700, maximized: 'yes' } }).window).toEqual({
      width: 900,
      height: 700,
      maximized: false,
    });
  });

  it('store saves each change and keeps working in memory when saving fails', () => {
    const errors: unknown[] = [];
    const store = new SettingsStore(file, (error) => errors.push(error));
    store.update((settings) => rememberDatabase(settings, '/a.sqlite'));
    expect(loadSettings(file).settings.lastDatabase).toBe('/a.sqlite');

    const blocked = new SettingsStore(join(file, 'not-a-folder', 'settings.json'), (error) => errors.push(error));
    blocked.update((settings) => ({ ...settings, port: 4999 }));
    expect(blocked.get().port).toBe(4999);
    expect(errors).toHaveLength(1);
  });
});

describe('recent databases', () => {
  it('puts the opened database first without duplicates', () => {
    let settings = defaultSettings();
    for (const file of ['/a.sqlite', '/b.sqlite', '/a.sqlite']) settings = rememberDatabase(settings, file);
    expect(settings.recentDatabases).toEqual(['/a.sqlite', '/b.sqlite']);
    expect(settings.lastDatabase).toBe('/a.sqlite');
  });

  it(`keeps the ${MAX_RECENT_DATABASES} most recent`, () => {
    let settings = defaultSettings();
    for (let index = 0; index < MAX_RECENT_DATABASES + 3; index++) {
      settings = rememberDatabase(settings, `/db-${index}.sqlite`);
    }
    expect(settings.recentDatabases).toHaveLength(MAX_RECENT_DATABASES);
    expect(settings.recentDatabases[0]).toBe(`/db-${MAX_RECENT_DATABASES + 2}.sqlite`);
  });

  it('forgets a database that was moved or deleted', () => {
    const settings = rememberDatabase(rememberDatabase(defaultSettings(), '/a.sqlite'), '/b.sqlite');
    expect(forgetRecentDatabase(settings, '/a.sqlite').recentDatabases).toEqual(['/b.sqlite']);
  });
});

describe('user-data folder', () => {
  it('is the OS folder unless QUIRE_USER_DATA_DIR moves it', () => {
    expect(resolveUserDataDir({}, '/home/ana/.config/Quire')).toBe('/home/ana/.config/Quire');
    expect(resolveUserDataDir({ QUIRE_USER_DATA_DIR: ' ' }, '/home/ana/.config/Quire')).toBe('/home/ana/.config/Quire');
    expect(resolveUserDataDir({ QUIRE_USER_DATA_DIR: 'profile' }, '/x', '/tmp/run')).toBe('/tmp/run/profile');
  });
});
