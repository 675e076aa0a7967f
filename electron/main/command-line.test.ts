import { describe, expect, it } from 'vitest';
import { parseDesktopArgs } from './command-line.js';

describe('desktop command line', () => {
  it('reads --db and --port in both spellings', () => {
    expect(parseDesktopArgs(['--db', 'site.sqlite', '--port=5000'], {})).toEqual({
      argDb: 'site.sqlite',
      argPort: 5000,
      problems: [],
    });
  });

  it('reads QUIRE_DB and QUIRE_PORT', () => {
    expect(parseDesktopArgs([], { QUIRE_DB: '/srv/site.sqlite', QUIRE_PORT: '0' })).toEqual({
      envDb: '/srv/site.sqlite',
      envPort: 0,
      problems: [],
    });
  });

  it('leaves Electron and Chromium switches alone', () => {
    expect(parseDesktopArgs(['--enable-logging', '--remote-debugging-port=0', '--inspect=0', '.'], {})).toEqual({
      problems: [],
    });
  });

  it('reports a malformed port instead of guessing', () => {
    expect(parseDesktopArgs(['--port', 'eighty'], { QUIRE_PORT: '99999' }).problems).toEqual([
      '--port must be a whole number from 0 to 65535 (0 picks a free port)',
      'QUIRE_PORT must be a whole number from 0 to 65535 (0 picks a free port)',
    ]);
  });
});
