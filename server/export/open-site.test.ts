import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readList } from '../http/row-routes.js';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { openSite } from './open-site.js';

/**
 * A command's site (`quire export`) reads what the API answers without the server's in-memory
 * search index: its lists never search, so an index built on its first list would be work thrown
 * away. Runs on SQLite and, in `server-pg`, PostgreSQL.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const made = await request(server, 'POST', '/cms/news', {
    json: { title: 'Opened by a command', status: 'published', published_at: '2026-01-01 10:00:00' },
  });
  expect(made.response.status, made.text).toBe(201);
});

afterAll(async () => {
  await server?.dispose();
});

describe('openSite', () => {
  it('opens the site without an in-memory search index, and reads what the API answers', async () => {
    // The server itself keeps one (where its engine has one): the command's site differs on purpose.
    expect(server.database.engine.searchIndex.memory).toBeDefined();
    const site = await openSite({
      dbFile: server.dbFile,
      postgres: server.postgresDatabase?.target ?? null,
    });
    try {
      expect(site.database.engine.searchIndex.memory).toBeUndefined();
      expect(site.database.engine.kind).toBe(server.database.engine.kind);
      const { body } = await readList(site.services, 'news', { filter: 'status=published' });
      expect(body.rows.map((row) => row.title)).toContain('Opened by a command');
    } finally {
      await site.close();
    }
  });
});
