import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseDatabase } from './database-choice.js';
import { readQuireConfig } from './quire-config.js';

describe('the database a command opens by default', () => {
  it('is content.sqlite in the folder QUIRE_USER_DATA_DIR names, for serve and every other command alike', () => {
    const env = { QUIRE_USER_DATA_DIR: '/srv/quire-profile' };
    const file = join('/srv/quire-profile', 'content.sqlite');
    expect(chooseDatabase({}, env)).toEqual({ dbFile: file, postgres: null });
    expect(readQuireConfig([], env).dbFile).toBe(file);
  });

  it('gives way to --db and QUIRE_DB', () => {
    const env = { QUIRE_USER_DATA_DIR: '/srv/quire-profile', QUIRE_DB: '/data/site.sqlite' };
    expect(chooseDatabase({}, env).dbFile).toBe('/data/site.sqlite');
    expect(chooseDatabase({ db: '/data/other.sqlite' }, env).dbFile).toBe('/data/other.sqlite');
    expect(readQuireConfig([], env).dbFile).toBe('/data/site.sqlite');
  });
});
