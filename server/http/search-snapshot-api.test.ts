// Engine: SQLite only: the saved search index is SQLite's; PostgreSQL's are
// server/http/postgres-saved-search-index.test.ts and postgres-memory-search-api.test.ts.

import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { requireSqlite } from '../db/database.js';
import { searchPendingName } from '../db/queries/internal-names.js';
import { memoryIndexOf } from '../db/sqlite/sqlite-memory-search-state.js';
import { snapshotFolder } from '../db/sqlite/sqlite-search-snapshot.js';
import { request } from '../test-support/api-scenario.js';
import { reopenOptions, startTestServer, type TestServer, testEngine } from '../test-support/test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.dispose();
});

const TITLES = ['Harbour lights', 'Café opening', 'Station news', 'Über alles', 'Night harbour'];

async function searchIds(server: TestServer, keyword: string): Promise<{ ids: string[]; filtered: number }> {
  const path = `/cms/news?filter=${encodeURIComponent(`search=${keyword}`)}&order=id&limit=100`;
  const { body } = await request(server, 'GET', path);
  return { ids: body.rows.map((row: { id: string }) => row.id), filtered: body.filtered };
}

// Saved search indexes are SQLite's (PostgreSQL searches with its own indexes).
describe.skipIf(testEngine() !== 'sqlite')('the saved search index (SQLite)', () => {
  it('is saved when the server stops and read back when it starts again, answering the same', async () => {
    const first = await startTestServer({ searchIndexMinRows: 10 });
    for (let i = 0; i < 30; i++) {
      const created = await request(first, 'POST', '/cms/news', {
        body: { title: `${TITLES[i % TITLES.length]} ${i}`, status: 'draft', published_at: '2025-01-01 10:00:00' },
      });
      expect(created.response.status, JSON.stringify(created.body)).toBe(201);
    }
    const file = requireSqlite(first.database, 'this test').file;
    const folder = snapshotFolder(file);
    // A write just before the stop (its search flush, 500 ms later, is still due): the flush runs before the index is saved
    // (otherwise it would run after, emptying the pending table of the saved index's marker).
    const last = await request(first, 'POST', '/cms/news', {
      body: { title: 'Harbour last', status: 'draft', published_at: '2025-01-01 10:00:00' },
    });
    expect(last.response.status).toBe(201);
    const before = await Promise.all(['harbour', 'caf', 'a', 'ber 3'].map((keyword) => searchIds(first, keyword)));
    expect(before[0].filtered).toBe(13);
    await first.stop();
    expect(readdirSync(folder)).toHaveLength(1);
    const raw = new Database(file, { readonly: true });
    const pending = raw.prepare(`select rowid as r from "${searchPendingName('news')}"`).all() as { r: number }[];
    raw.close();
    expect(pending).toHaveLength(1);
    expect(pending[0].r).toBeLessThan(0);

    const second = await startTestServer({ ...reopenOptions(first), searchIndexMinRows: 10 });
    servers.push(second);
    const after = await Promise.all(['harbour', 'caf', 'a', 'ber 3'].map((keyword) => searchIds(second, keyword)));
    expect(after).toEqual(before);
    expect(memoryIndexOf(requireSqlite(second.database, 'this test').runner, 'news')).toMatchObject({
      ready: true,
      loaded: true,
    });
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
  });
  it('says why a saved index was not read back, and answers the same after building it', async () => {
    const first = await startTestServer({ searchIndexMinRows: 10 });
    for (let i = 0; i < 20; i++) {
      const created = await request(first, 'POST', '/cms/news', {
        body: { title: `${TITLES[i % TITLES.length]} ${i}`, status: 'draft', published_at: '2025-01-01 10:00:00' },
      });
      expect(created.response.status).toBe(201);
    }
    const before = await searchIds(first, 'harbour');
    await first.stop();
    const folder = snapshotFolder(requireSqlite(first.database, 'this test').file);
    const [name] = readdirSync(folder);
    writeFileSync(join(folder, name), 'not an index');

    const second = await startTestServer({ ...reopenOptions(first), searchIndexMinRows: 10 });
    servers.push(second);
    expect(await searchIds(second, 'harbour')).toEqual(before);
    expect(second.errors).toEqual(['news: its file is damaged or of another version']);
  });
});
