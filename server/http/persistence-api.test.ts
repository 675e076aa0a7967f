import { afterEach, describe, expect, it } from 'vitest';
import { requireSqlite } from '../db/database.js';
import { request } from '../test-support/api-scenario.js';
import { reopenOptions, startTestServer, type TestServer, testEngine } from '../test-support/test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.dispose();
});

describe('the database', () => {
  it('keeps every acknowledged write across a restart', async () => {
    const first = await startTestServer();
    const created = await request(first, 'POST', '/cms/news', {
      body: { title: 'Survives', status: 'published', published_at: '2025-01-01 10:00:00', 'meta[title]': 'Kept' },
    });
    expect(created.response.status).toBe(201);
    const updated = await request(first, 'PUT', `/cms/news/${created.body.id}`, { body: { status: 'archived' } });
    expect(updated.response.status).toBe(200);
    await first.stop();

    const second = await startTestServer(reopenOptions(first));
    servers.push(second);
    const { body } = await request(second, 'GET', `/cms/news/${created.body.id}`);
    expect(body.rows[0]).toMatchObject({
      title: 'Survives',
      slug: 'survives',
      status: 'archived',
      meta: { title: 'Kept', description: '', keywords: '' },
    });
    const types = await request(second, 'GET', '/cms-content');
    expect(types.body.count).toBe(4);
  });

  // The file's journal settings; PostgreSQL keeps its own write-ahead log, which Quire does not set.
  it.skipIf(testEngine() !== 'sqlite')(
    'runs in WAL mode with synchronous=FULL, so a 2xx means the write is on disk (SQLite only)',
    async () => {
      const server = await startTestServer();
      servers.push(server);
      expect(requireSqlite(server.database, 'this check').raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(requireSqlite(server.database, 'this check').raw.pragma('synchronous', { simple: true })).toBe(2);
    },
  );
});
