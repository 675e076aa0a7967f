// Engine: PostgreSQL only: two servers on one PostgreSQL database of its own answer as one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi as call, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';

/**
 * Two Quire servers on one PostgreSQL database behave as one: a write acknowledged by
 * one is seen by the next read on the other, content-type changes included, without a restart.
 */

const postgres = await postgresForTests();

const news = { title: 'Harbour festival', status: 'published', published_at: '2026-01-01 10:00:00' };

describe.skipIf(!postgres.available)(`two servers on one database${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let a: PostgresTestServer;
  let b: PostgresTestServer;

  beforeAll(async () => {
    a = await startPostgresTestServer(database().target);
    b = await startPostgresTestServer(database().target);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('see each other’s row writes at once: create, update, delete, counts and search', async () => {
    const created = await call(a, 'POST', '/cms/news', news);
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await call(b, 'GET', `/cms/news/${id}`)).body.rows[0].title).toBe('Harbour festival');
    expect((await call(b, 'GET', '/cms/news?filter=search%3Dharbour')).body.filtered).toBe(1);
    expect((await call(b, 'PUT', `/cms/news/${id}`, { title: 'Harbour fair' })).status).toBe(200);
    expect((await call(a, 'GET', `/cms/news/${id}`)).body.rows[0].title).toBe('Harbour fair');
    expect((await call(a, 'GET', '/cms/news?filter=search%3Dfair')).body.filtered).toBe(1);
    expect((await call(a, 'DELETE', `/cms/news/${id}`)).status).toBe(200);
    expect((await call(b, 'GET', `/cms/news/${id}`)).status).toBe(404);
    expect((await call(b, 'GET', '/cms/news')).body.total).toBe(0);
  });

  it('see content types created, changed and deleted through the other, without a restart', async () => {
    const columns = [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
    ];
    expect((await call(a, 'POST', '/cms-content', { title: 'Authors', columns })).status).toBe(201);
    const listed = await call(b, 'GET', '/cms-content');
    expect(listed.body.content_types.map((type: { slug: string }) => type.slug)).toContain('authors');
    expect((await call(b, 'POST', '/cms/authors', { name: 'Ursula Le Guin' })).status).toBe(201);

    // A rename through B: A must plan its next write against the new column.
    const renamed = columns.map((column) =>
      column.name === 'name'
        ? { ...column, name: 'full_name', from: 'name' }
        : { ...column, parent: column.parent && 'full_name' },
    );
    expect((await call(b, 'PUT', '/cms-content/authors', { columns: renamed })).status).toBe(200);
    const written = await call(a, 'POST', '/cms/authors', { full_name: 'Octavia Butler' });
    expect(written.status).toBe(201);
    const read = await call(a, 'GET', '/cms/authors?order=full_name');
    expect(read.body.rows.map((row: { full_name: string }) => row.full_name)).toEqual([
      'Octavia Butler',
      'Ursula Le Guin',
    ]);
    expect((await call(a, 'GET', '/cms/authors?filter=search%3Dbutler')).body.filtered).toBe(1);

    expect((await call(a, 'DELETE', '/cms-content/authors?force=true')).status).toBe(200);
    expect((await call(b, 'GET', '/cms/authors')).status).toBe(404);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('write on the types as the other left them, even where the types as loaded would have been accepted', async () => {
    const kinds = (ids: string[]) => ids.map((id) => ({ id, text: id }));
    const columns = [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'kind', label: 'Kind', type: 'select', required: false, options: kinds(['hall', 'park']) },
    ];
    expect((await call(a, 'POST', '/cms-content', { title: 'Venues', columns })).status).toBe(201);
    // A loads the type as it is now (its first write of it).
    expect((await call(a, 'POST', '/cms/venues', { name: 'Town hall', kind: 'hall' })).status).toBe(201);
    // B narrows the options and adds a column; A has not heard of it, and no read of A's asks.
    const narrowed = [
      { ...columns[0] },
      { ...columns[1], options: kinds(['hall']) },
      { name: 'capacity', label: 'Capacity', type: 'number', required: false },
    ];
    expect((await call(b, 'PUT', '/cms-content/venues', { columns: narrowed })).status).toBe(200);
    // On A's types 'park' is an option and the row's SQL is as valid: the COMMIT's check sends the
    // write round again on B's types, which refuse it, and nothing was kept.
    const refused = await call(a, 'POST', '/cms/venues', { name: 'City park', kind: 'park' });
    expect(refused.status).toBe(400);
    expect((await call(b, 'GET', '/cms/venues')).body.total).toBe(1);
    // A write B's types accept is answered in their shape.
    const written = await call(a, 'POST', '/cms/venues', { name: 'Concert hall', kind: 'hall', capacity: 900 });
    expect(written.status).toBe(201);
    expect(written.body.rows[0].capacity).toBe(900);
    expect((await call(a, 'DELETE', '/cms-content/venues?force=true')).status).toBe(200);
    expect((await call(b, 'GET', '/cms/authors')).status).toBe(404);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });
});
