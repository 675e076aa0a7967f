import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_IDLE_MS } from '../accounts/account-service.js';
import { DEFAULT_EVENT_STREAM_LIMITS } from '../changes/event-streams.js';
import { readQuireConfig, UsageError } from './quire-config.js';

describe('QuireConfig', () => {
  it('takes the session idle time from QUIRE_SESSION_HOURS, a positive number of hours, else 12 hours', () => {
    expect(readQuireConfig([], {}).sessionIdleMs).toBe(DEFAULT_SESSION_IDLE_MS);
    expect(readQuireConfig([], { QUIRE_SESSION_HOURS: '2' }).sessionIdleMs).toBe(2 * 60 * 60_000);
    expect(readQuireConfig([], { QUIRE_SESSION_HOURS: '0.5' }).sessionIdleMs).toBe(30 * 60_000);
    for (const value of ['', '0', '-3', 'soon']) {
      expect(readQuireConfig([], { QUIRE_SESSION_HOURS: value }).sessionIdleMs, value).toBe(DEFAULT_SESSION_IDLE_MS);
    }
  });

  it('saves search indexes in QUIRE_SEARCH_INDEX_DIR, else in the user-data folder the environment names', () => {
    expect(readQuireConfig([], { QUIRE_SEARCH_INDEX_DIR: '/srv/indexes' }).searchIndexDir).toBe('/srv/indexes');
    expect(readQuireConfig([], { QUIRE_USER_DATA_DIR: '/srv/profile' }).searchIndexDir).toBe(
      join('/srv/profile', 'search-indexes'),
    );
  });

  it('sends backups not kept beside the database to --backup-dir, else to the user-data folder the environment names', () => {
    expect(readQuireConfig([], { QUIRE_USER_DATA_DIR: '/srv/profile' }).backupDir).toBe(
      join('/srv/profile', 'backups'),
    );
    const flagged = readQuireConfig(['--database', 'postgres://db.example/site', '--backup-dir', '/srv/backups'], {});
    expect(flagged.backupDir).toBe('/srv/backups');
  });

  it('limits open event streams by --event-streams and --event-streams-per-credential, flag over variable', () => {
    expect(readQuireConfig([], {}).eventStreams).toEqual(DEFAULT_EVENT_STREAM_LIMITS);
    const env = { QUIRE_EVENT_STREAMS: '50', QUIRE_EVENT_STREAMS_PER_CREDENTIAL: '3' };
    expect(readQuireConfig([], env).eventStreams).toEqual({ total: 50, perCredential: 3 });
    expect(readQuireConfig(['--event-streams', '9', '--event-streams-per-credential', '2'], env).eventStreams).toEqual({
      total: 9,
      perCredential: 2,
    });
    expect(() => readQuireConfig(['--event-streams', '0'], {})).toThrow(UsageError);
  });

  it('reads only the environment it is given', () => {
    const config = readQuireConfig([], { QUIRE_PORT: '4999', QUIRE_EDITOR: 'Ann', QUIRE_DB: '/data/site.sqlite' });
    expect(config).toMatchObject({ port: 4999, editorName: 'Ann', dbFile: '/data/site.sqlite' });
    expect(readQuireConfig([], { QUIRE_PORT: '4998' }).port).toBe(4998);
  });
});
