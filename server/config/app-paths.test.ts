import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultBackupDir, defaultDatabaseFile, defaultSearchIndexDir, userDataDir } from './app-paths.js';

describe('the default database file', () => {
  it('is content.sqlite in ~/.config/Quire on Linux, like Electron userData', () => {
    expect(defaultDatabaseFile('linux', {}, '/home/ann')).toBe(join('/home/ann', '.config', 'Quire', 'content.sqlite'));
  });
  it('honours XDG_CONFIG_HOME on Linux', () => {
    expect(userDataDir('linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/ann')).toBe(join('/cfg', 'Quire'));
  });
  it('is in Application Support on macOS', () => {
    expect(userDataDir('darwin', {}, '/Users/ann')).toBe(join('/Users/ann', 'Library', 'Application Support', 'Quire'));
  });
  it('is where QUIRE_USER_DATA_DIR says, on every OS, as the desktop app moves its folder', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(defaultDatabaseFile(platform, { QUIRE_USER_DATA_DIR: '/srv/quire' }, '/home/ann')).toBe(
        join('/srv/quire', 'content.sqlite'),
      );
    }
    expect(userDataDir('linux', { QUIRE_USER_DATA_DIR: 'profile' }, '/home/ann')).toBe(join(process.cwd(), 'profile'));
    expect(userDataDir('linux', { QUIRE_USER_DATA_DIR: ' ' }, '/home/ann')).toBe(join('/home/ann', '.config', 'Quire'));
  });
  it('is in APPDATA on Windows', () => {
    expect(userDataDir('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann')).toBe(
      join('C:\\Users\\ann\\AppData\\Roaming', 'Quire'),
    );
  });
});

describe("PostgreSQL's saved search indexes", () => {
  it('go to search-indexes in the app-data folder, or where QUIRE_SEARCH_INDEX_DIR says', () => {
    expect(defaultSearchIndexDir('linux', {}, '/home/ann')).toBe(
      join('/home/ann', '.config', 'Quire', 'search-indexes'),
    );
    expect(defaultSearchIndexDir('linux', { QUIRE_SEARCH_INDEX_DIR: '/srv/quire-index' }, '/home/ann')).toBe(
      '/srv/quire-index',
    );
    expect(defaultSearchIndexDir('linux', { QUIRE_SEARCH_INDEX_DIR: '  ' }, '/home/ann')).toBe(
      join('/home/ann', '.config', 'Quire', 'search-indexes'),
    );
  });
});

describe('Backups not kept beside their database', () => {
  it('go to backups in the app-data folder the environment names', () => {
    expect(defaultBackupDir('linux', {}, '/home/ann')).toBe(join('/home/ann', '.config', 'Quire', 'backups'));
    expect(defaultBackupDir('linux', { QUIRE_USER_DATA_DIR: '/srv/quire' }, '/home/ann')).toBe(
      join('/srv/quire', 'backups'),
    );
  });
});
