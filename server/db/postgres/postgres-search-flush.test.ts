import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresForTests, skipNote, useTestDatabase } from '../../test-support/postgres.js';
import { callApi, type PostgresTestServer, startPostgresTestServer } from '../../test-support/postgres-server.js';

/**
 * On PostgreSQL a row reaches its search table in its own write's transaction, so nothing is left
 * for a search-index flush: a write is one transaction, and no empty one follows it (SQLite's
 * flush moves its pending rows in a transaction of its own). Every statement the server sends is
 * seen through node-postgres' Client.query.
 */

const postgres = await postgresForTests();

describe.skipIf(!postgres.available)(`PostgreSQL writes and the search index${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let server: PostgresTestServer;

  beforeAll(async () => {
    server = await startPostgresTestServer(database().target);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
  });

  it('opens one transaction per write and none to flush the search index', async () => {
    const query = vi.spyOn(pg.Client.prototype, 'query');
    const created = await callApi(server, 'POST', '/cms/news', {
      title: 'Über den Hafen',
      status: 'draft',
      published_at: '2025-01-01 10:00:00',
    });
    expect(created.status).toBe(201);
    expect((await callApi(server, 'PUT', `/cms/news/${created.body.id}`, { title: 'Über die Brücke' })).status).toBe(
      200,
    );
    const other = await callApi(server, 'POST', '/cms/news', {
      title: 'Gone soon',
      status: 'draft',
      published_at: '2025-01-01 10:00:00',
    });
    expect((await callApi(server, 'DELETE', `/cms/news/${other.body.id}`)).status).toBe(200);
    // What a scheduled flush would run (and what tests call to settle SQLite's index).
    await server.services.rows.searchFlushes.flush();

    const statements = query.mock.calls.map(([text]) =>
      String(typeof text === 'string' ? text : (text as { text?: string }).text)
        .trim()
        .toLowerCase(),
    );
    query.mockRestore();
    expect(statements.filter((text) => text === 'begin')).toHaveLength(4);
    expect(statements.filter((text) => text === 'commit')).toHaveLength(4);

    // The rows were searchable straight from their writes.
    const found = await callApi(server, 'GET', `/cms/news?filter=${encodeURIComponent('search=brücke')}`);
    expect(found.body.rows.map((row: { id: string }) => row.id)).toEqual([created.body.id]);
    expect((await callApi(server, 'GET', `/cms/news?filter=${encodeURIComponent('search=über')}`)).body.filtered).toBe(
      1,
    );
    expect(server.errors).toEqual([]);
  });
});
