import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.dispose());

const EVENT_COLUMNS: ColumnDescriptor[] = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
  { name: 'day', label: 'Day', type: 'date', required: false },
  { name: 'free', label: 'Free entry', type: 'boolean', required: false },
  {
    name: 'kind',
    label: 'Kind',
    type: 'select',
    required: false,
    options: [
      { id: 'talk', text: 'Talk' },
      { id: 'concert', text: 'Concert' },
    ],
  },
];

async function createEvents() {
  return request(server, 'POST', '/cms-content', {
    json: { title: 'Events', columns: EVENT_COLUMNS, preview_path: 'http://localhost:4321/events/{slug}' },
  });
}

/** The SQL columns of a table, in order, straight from the database's catalog (either engine). */
async function sqlColumns(table: string): Promise<string[]> {
  const tables = await server.database.db.introspection.getTables();
  return tables.find((each) => each.name === table && !each.isView)?.columns.map((column) => column.name) ?? [];
}

describe('POST /api/cms-content creates a content type', () => {
  it('with its table, custom: true, slug and table from the title', async () => {
    const { response, body } = await createEvents();
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body).toEqual({
      content_type_id: 'events',
      type: 'collection',
      table: 'events',
      title: 'Events',
      status: 'published',
      slug: 'events',
      columns: EVENT_COLUMNS.map((column) => ({ ...column, filterable: true, orderable: true })),
      custom: true,
      preview_path: 'http://localhost:4321/events/{slug}',
      // The title is the slug's source column, whatever its name; search covers it and the slug.
      title_column: 'name',
      search_columns: ['name', 'slug'],
    });
    expect(await sqlColumns('events')).toEqual([
      'id',
      'name',
      'slug',
      'day',
      'free',
      'kind',
      'meta',
      'created_at',
      'updated_at',
      'created_by',
      'updated_by',
      // PostgreSQL's list indexes hold a text column's first characters, stored beside it.
      ...(server.engine === 'postgres' ? ['quire_key:name'] : []),
    ]);
    const types = (await request(server, 'GET', '/cms-content')).body;
    expect(types.content_types.map((type: { slug: string }) => type.slug)).toContain('events');
  });

  it('whose rows work at once, with date, boolean and select fields', async () => {
    await createEvents();
    const created = await request(server, 'POST', '/cms/events', {
      body: { name: 'Jazz night', day: '2025-07-04', free: 'on', kind: 'concert' },
    });
    expect(created.response.status).toBe(201);
    expect(created.body.rows[0]).toMatchObject({
      name: 'Jazz night',
      slug: 'jazz-night',
      day: '2025-07-04',
      free: true,
      kind: 'concert',
    });
    await request(server, 'POST', '/cms/events', {
      json: { name: 'Talk', day: '2025-07-01', free: false, kind: 'talk' },
    });
    expect(
      (await request(server, 'GET', '/cms/events?filter=free=true')).body.rows.map((r: { name: string }) => r.name),
    ).toEqual(['Jazz night']);
    expect((await request(server, 'GET', '/cms/events?filter=free=false')).body.filtered).toBe(1);
    expect((await request(server, 'GET', '/cms/events?order=day')).body.rows[0].name).toBe('Talk');
    const bad = await request(server, 'POST', '/cms/events', {
      body: { name: 'Bad', day: '2025-02-30', free: 'perhaps' },
    });
    expect(bad.body.error.fields).toEqual({
      day: 'must be a real date in the format YYYY-MM-DD',
      free: 'must be true or false',
    });
  });

  it.each([
    [{ title: '', columns: EVENT_COLUMNS }, 'title'],
    [{ title: 'X', columns: [] }, 'columns'],
    [{ title: 'X', table: 'sqlite_master', columns: EVENT_COLUMNS }, 'table'],
    [{ title: 'X', table: 'quire_content_types', columns: EVENT_COLUMNS }, 'table'],
    [{ title: 'X', table: 'Bad Name', columns: EVENT_COLUMNS }, 'table'],
    [{ title: 'Api', columns: EVENT_COLUMNS }, 'table'],
    [{ title: 'X', table: 'assets', columns: EVENT_COLUMNS }, 'table'],
    [{ title: 'X', columns: [{ name: 'id', label: 'Id', type: 'text', required: false }] }, 'columns[0].name'],
    [{ title: 'X', columns: [{ name: 'a"; drop', label: 'A', type: 'text', required: false }] }, 'columns[0].name'],
    [{ title: 'X', columns: [{ name: 'a', label: 'A', type: 'video', required: false }] }, 'columns[0].type'],
    [{ title: 'X', columns: [{ name: 'a', label: 'A', type: 'select', required: false }] }, 'columns[0]'],
    [
      { title: 'X', columns: [{ name: 'a', label: 'A', type: 'relation', required: false, target: 'nope' }] },
      'columns[0].target',
    ],
    [{ title: 'X', columns: [{ name: 's', label: 'S', type: 'slug', required: false, parent: 'nope' }] }, 'columns[0]'],
    [{ title: 'X', columns: EVENT_COLUMNS, colour: 'red' }, 'colour'],
  ])('refuses %j naming %s, creating nothing', async (body, field) => {
    const { response, body: error } = await request(server, 'POST', '/cms-content', { json: body });
    expect(response.status).toBe(400);
    expect(Object.keys(error.error.fields)).toContain(field);
    expect((await request(server, 'GET', '/cms-content')).body.count).toBe(4);
  });

  it('refuses a slug or table that is taken with 409', async () => {
    await createEvents();
    expect((await createEvents()).response.status).toBe(409);
    const sameTable = await request(server, 'POST', '/cms-content', {
      json: { title: 'Other', table: 'news', columns: EVENT_COLUMNS },
    });
    expect(sameTable.response.status).toBe(409);
  });
});

describe('PUT /api/cms-content/:slug changes a content type', () => {
  beforeEach(async () => {
    await createEvents();
    await request(server, 'POST', '/cms/events', { body: { name: 'Jazz night', day: '2025-07-04', kind: 'concert' } });
  });

  const changed = (columns: object[]) => request(server, 'PUT', '/cms-content/events', { json: { columns } });

  it('adds a column: existing rows read null', async () => {
    const { response } = await changed([
      ...EVENT_COLUMNS,
      { name: 'venue', label: 'Venue', type: 'text', required: false },
    ]);
    expect(response.status).toBe(200);
    const { body } = await request(server, 'GET', '/cms/events');
    expect(body.rows[0]).toMatchObject({ name: 'Jazz night', venue: null });
    expect(body.columns.map((c: { name: string }) => c.name)).toContain('venue');
  });

  it('renames a column, keeping its data', async () => {
    const columns = EVENT_COLUMNS.map((c) =>
      c.name === 'day' ? { ...c, name: 'date', label: 'Date', from: 'day' } : c,
    );
    expect((await changed(columns)).response.status).toBe(200);
    const { body } = await request(server, 'GET', '/cms/events');
    expect(body.rows[0]).toMatchObject({ date: '2025-07-04' });
    expect(body.rows[0]).not.toHaveProperty('day');
    expect(await sqlColumns('events')).toContain('date');
  });

  it('removes a column with its data', async () => {
    expect((await changed(EVENT_COLUMNS.filter((c) => c.name !== 'day'))).response.status).toBe(200);
    expect(await sqlColumns('events')).not.toContain('day');
    expect((await request(server, 'GET', '/cms/events')).body.rows[0]).not.toHaveProperty('day');
  });

  it('reorders and relabels columns', async () => {
    const columns = [...EVENT_COLUMNS].reverse().map((c) => (c.name === 'name' ? { ...c, label: 'Event name' } : c));
    const { body } = await changed(columns);
    expect(body.columns.map((c: { name: string }) => c.name)).toEqual(['kind', 'free', 'day', 'slug', 'name']);
    expect(body.columns.find((c: { name: string }) => c.name === 'name').label).toBe('Event name');
    expect((await request(server, 'GET', '/cms/events')).body.rows[0].name).toBe('Jazz night');
  });

  it('changes select options, but not away from values in use (409)', async () => {
    const withOptions = (options: object[]) => EVENT_COLUMNS.map((c) => (c.name === 'kind' ? { ...c, options } : c));
    const added = await changed(
      withOptions([
        { id: 'talk', text: 'Talk' },
        { id: 'concert', text: 'Live music' },
        { id: 'film', text: 'Film' },
      ]),
    );
    expect(added.response.status).toBe(200);
    const refused = await changed(withOptions([{ id: 'talk', text: 'Talk' }]));
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.message).toContain('concert');
    const kind = (await request(server, 'GET', '/cms-content/events')).body.columns.find(
      (c: { name: string }) => c.name === 'kind',
    );
    expect(kind.options.map((o: { id: string }) => o.id)).toEqual(['talk', 'concert', 'film']);
  });

  it('refuses to change a column’s type', async () => {
    const { response, body } = await changed(
      EVENT_COLUMNS.map((c) => (c.name === 'day' ? { ...c, type: 'number' } : c)),
    );
    expect(response.status).toBe(400);
    expect(body.error.fields.day).toMatch(/cannot change type from date to number/);
  });

  it('sets the title and preview path', async () => {
    const { body } = await request(server, 'PUT', '/cms-content/events', {
      json: { title: 'Happenings', preview_path: null },
    });
    expect(body).toMatchObject({ title: 'Happenings', preview_path: null });
  });

  it('leaves schema and data as they were when the database refuses the change', async () => {
    // Something outside Quire depends on the column (a view), so the database refuses to drop it
    // (SQLite and PostgreSQL alike: neither drops a column a view reads without being told to).
    await sql`create view event_days as select day from events`.execute(server.database.db);
    const before = await sqlColumns('events');
    const { response } = await changed([
      ...EVENT_COLUMNS.filter((c) => c.name !== 'day'),
      { name: 'venue', label: 'Venue', type: 'text', required: false },
    ]);
    expect(response.status).toBe(500);
    expect(await sqlColumns('events')).toEqual(before);
    const { body } = await request(server, 'GET', '/cms-content/events');
    expect(body.columns.map((c: { name: string }) => c.name)).toEqual(EVENT_COLUMNS.map((c) => c.name));
    expect(body.rows[0]).toMatchObject({ name: 'Jazz night', day: '2025-07-04' });
    const { db, engine } = server.database;
    const indexes = await engine.schema.indexes(db as unknown as Kysely<unknown>, 'events');
    expect(indexes.length).toBeGreaterThan(0);
  });
});

describe('DELETE /api/cms-content/:slug', () => {
  beforeEach(async () => {
    await createEvents();
  });

  it('deletes an empty type and its table', async () => {
    const { response, body } = await request(server, 'DELETE', '/cms-content/events');
    expect(response.status).toBe(200);
    expect(body.slug).toBe('events');
    expect(await sqlColumns('events')).toEqual([]);
    expect((await request(server, 'GET', '/cms/events')).response.status).toBe(404);
  });

  it('refuses while rows exist, unless force=true', async () => {
    await request(server, 'POST', '/cms/events', { body: { name: 'Jazz night' } });
    const refused = await request(server, 'DELETE', '/cms-content/events');
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.message).toMatch(/still has 1 row/);
    expect((await request(server, 'GET', '/cms/events')).body.total).toBe(1);
    expect((await request(server, 'DELETE', '/cms-content/events?force=true')).response.status).toBe(200);
  });

  it('refuses while another type has a relation to it', async () => {
    const refused = await request(server, 'DELETE', '/cms-content/categories');
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.message).toContain('articles.category');
  });
});
