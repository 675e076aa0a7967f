import { describe, expect, it } from 'vitest';
import { resolveStartupDatabase, withDatabaseExtension } from './database-path.js';

describe('startup database', () => {
  const base = {
    lastDatabase: '/home/ana/sites/blog.sqlite',
    defaultFile: '/home/ana/.config/Quire/content.sqlite',
    cwd: '/home/ana/work',
    exists: () => true,
  };

  it('opens --db first, relative to where the app was started', () => {
    expect(resolveStartupDatabase({ ...base, argDb: 'site.sqlite', envDb: '/env.sqlite' })).toEqual({
      file: '/home/ana/work/site.sqlite',
      source: 'argument',
      notice: null,
    });
  });

  it('then QUIRE_DB', () => {
    expect(resolveStartupDatabase({ ...base, envDb: '/srv/env.sqlite' })).toEqual({
      file: '/srv/env.sqlite',
      source: 'environment',
      notice: null,
    });
  });

  it('then the database open last time', () => {
    expect(resolveStartupDatabase(base)).toEqual({ file: base.lastDatabase, source: 'last-used', notice: null });
  });

  it('then content.sqlite in the user-data folder, the file `npm run serve` uses', () => {
    expect(resolveStartupDatabase({ ...base, lastDatabase: null })).toEqual({
      file: base.defaultFile,
      source: 'default',
      notice: null,
    });
  });

  it('never recreates a last database that disappeared; opens the default and says so', () => {
    const result = resolveStartupDatabase({ ...base, exists: () => false });
    expect(result.file).toBe(base.defaultFile);
    expect(result.notice).toBe(
      'The last database, /home/ana/sites/blog.sqlite, was not found; Quire opened /home/ana/.config/Quire/content.sqlite instead.',
    );
  });

  it('ignores blank --db and QUIRE_DB values', () => {
    expect(resolveStartupDatabase({ ...base, argDb: ' ', envDb: '' }).source).toBe('last-used');
  });
});

describe('new database names', () => {
  it('adds .sqlite to a name without an extension and keeps a given one', () => {
    expect(withDatabaseExtension('/home/ana/blog')).toBe('/home/ana/blog.sqlite');
    expect(withDatabaseExtension('/home/ana/blog.db')).toBe('/home/ana/blog.db');
    expect(withDatabaseExtension('/home/ana/site.v2/blog')).toBe('/home/ana/site.v2/blog.sqlite');
  });
});
