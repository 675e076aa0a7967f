import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from './api-scenario.js';
import { databaseSnapshot } from './hostile-http.js';
import { databaseExists, postgresForTests } from './postgres.js';
import { countRows } from './seed.js';
import { reopenOptions, startTestServer, type TestEngine, type TestServer, testEngine } from './test-server.js';

/**
 * The API suites' harness on both engines: the engine named by QUIRE_TEST_ENGINE is the one served,
 * the helpers that look past the API (row counts, snapshots) see writes on either, a restart finds
 * the data again, and nothing is left behind.
 */

const postgres = await postgresForTests();
const servers: TestServer[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const server of servers.splice(0)) await server.dispose();
});

describe('QUIRE_TEST_ENGINE', () => {
  it('names the engine, SQLite when unset', () => {
    expect(testEngine({})).toBe('sqlite');
    expect(testEngine({ QUIRE_TEST_ENGINE: '' })).toBe('sqlite');
    expect(testEngine({ QUIRE_TEST_ENGINE: 'postgres' })).toBe('postgres');
    expect(testEngine({ QUIRE_TEST_ENGINE: ' Postgres ' })).toBe('postgres');
  });

  it('refuses a name it does not know rather than testing SQLite under another label', () => {
    expect(() => testEngine({ QUIRE_TEST_ENGINE: 'mysql' })).toThrow(
      'QUIRE_TEST_ENGINE is "mysql"; use sqlite or postgres',
    );
  });

  it('on PostgreSQL, refuses a SQLite file, which a restart would otherwise silently replace by an empty database', async () => {
    vi.stubEnv('QUIRE_TEST_ENGINE', 'postgres');
    await expect(startTestServer({ dbFile: '/tmp/elsewhere.sqlite' })).rejects.toThrow(/SQLite-only.*reopenOptions/);
  });
});

/** The harness on one engine, end to end. */
function harnessOn(engine: TestEngine, skipReason: string | null): void {
  describe.skipIf(skipReason !== null)(
    `the test server on ${engine}${skipReason ? ` (skipped: ${skipReason})` : ''}`,
    () => {
      it('serves that engine, sees writes past the API, restarts on the same data and leaves nothing behind', async () => {
        vi.stubEnv('QUIRE_TEST_ENGINE', engine);
        const first = await startTestServer();
        servers.push(first);
        expect(first.engine).toBe(engine);
        expect(first.database.engine.kind).toBe(engine);
        expect(first.postgresDatabase !== null).toBe(engine === 'postgres');

        const before = await databaseSnapshot(first);
        expect(await databaseSnapshot(first)).toBe(before);
        expect(await countRows(first, 'news')).toBe(0);
        const created = await request(first, 'POST', '/cms/news', {
          body: { title: 'Counted', status: 'draft', published_at: '2025-01-01 10:00:00' },
        });
        expect(created.response.status, created.text).toBe(201);
        expect(await countRows(first, 'news')).toBe(1);
        expect(await databaseSnapshot(first)).not.toBe(before);

        await first.stop();
        const second = await startTestServer(reopenOptions(first));
        servers.push(second);
        expect((await request(second, 'GET', `/cms/news/${created.body.id}`)).body.rows[0].title).toBe('Counted');

        await second.dispose();
        expect(existsSync(second.dir)).toBe(false);
        if (postgres.available && second.postgresDatabase) {
          expect(await databaseExists(postgres.target, second.postgresDatabase.name)).toBe(false);
        }
      });
    },
  );
}

harnessOn('sqlite', null);
harnessOn('postgres', postgres.skipReason);
