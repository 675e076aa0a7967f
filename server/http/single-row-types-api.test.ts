import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Single-row types (`"type": "single"`): the type holds one row, read and written at the type's
 * own address. `GET /cms/:type` answers that row in the single-row read's shape (with `meta`), or
 * no row before the first `PUT` writes it; `PUT` and `PATCH` change it under `If-Match` as a row's
 * write; `POST` and `DELETE` of rows are a 409 `single_row_type` that changes nothing. A collection
 * holding more than one row cannot become single. Runs on SQLite and, in `server-pg`, PostgreSQL.
 */

let server: TestServer;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.api}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    location: response.headers.get('location'),
    body: text === '' ? null : JSON.parse(text),
  };
}

const SETTINGS_COLUMNS = [
  { name: 'site_name', label: 'Site name', type: 'text', required: true },
  { name: 'tagline', label: 'Tagline', type: 'text', required: false },
];

/** A new single type `slug` with the settings columns. */
async function newSingleType(slug: string) {
  const created = await call('POST', '/cms-content', {
    title: `Settings ${slug}`,
    slug,
    type: 'single',
    columns: SETTINGS_COLUMNS,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.dispose();
});

describe('a single type', () => {
  it('is made with "type": "single", listed so, and reads as no row before its first PUT', async () => {
    const created = await newSingleType('site-a');
    expect(created.type).toBe('single');
    const listed = await call('GET', '/cms-content');
    expect(listed.body.content_types.find((type: { slug: string }) => type.slug === 'site-a').type).toBe('single');
    const read = await call('GET', '/cms/site_a');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ total: 0, count: 0, rows: [] });
    expect(read.body.meta).toEqual(expect.objectContaining({ title: '' }));
  });

  it('the first PUT creates its row (201, required fields checked), later ones change it (200)', async () => {
    await newSingleType('site-b');
    const missing = await call('PUT', '/cms/site_b', { tagline: 'No name' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.problems.site_name.code).toBe('required');
    expect((await call('GET', '/cms/site_b')).body.count).toBe(0);

    const first = await call('PUT', '/cms/site_b', { site_name: 'Quire', tagline: 'Content' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.location).toBe(`/api/cms/site_b/${first.body.id}`);
    const second = await call('PATCH', '/cms/site_b', { tagline: 'Changed' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, site_name: 'Quire', tagline: 'Changed' });

    const read = await call('GET', '/cms/site_b');
    expect(read.body).toMatchObject({ total: 1, count: 1, rows: [{ id: first.body.id, tagline: 'Changed' }] });
    expect(read.body.meta.title).toBe('Quire');
    // Its id still reads it, with the same answer and tag.
    const byId = await call('GET', `/cms/site_b/${first.body.id}`);
    expect(byId.status).toBe(200);
    expect(byId.etag).toBe(read.etag);
    expect(byId.body.rows).toEqual(read.body.rows);
  });

  it('refuses POST and DELETE of rows with a 409 single_row_type, changing nothing', async () => {
    await newSingleType('site-c');
    const { body: row } = await call('PUT', '/cms/site_c', { site_name: 'One' });
    const refusals = [
      await call('POST', '/cms/site_c', { site_name: 'Two' }),
      await call('POST', '/cms/site_c/chosen-id', { site_name: 'Two' }),
      await call('DELETE', `/cms/site_c/${row.id}`),
      await call('DELETE', '/cms/site_c'),
    ];
    for (const refusal of refusals) {
      expect(refusal.status, JSON.stringify(refusal.body)).toBe(409);
      expect(refusal.body.error.code).toBe('single_row_type');
      expect(refusal.body.error.message).toContain('PUT /api/cms/site_c');
    }
    const read = await call('GET', '/cms/site_c');
    expect(read.body).toMatchObject({ total: 1, rows: [{ id: row.id, site_name: 'One' }] });
  });

  it('takes If-Match as a row does: a fresh tag writes, a stale one is a 412 that writes nothing', async () => {
    await newSingleType('site-d');
    const none = await call('PUT', '/cms/site_d', { site_name: 'x' }, { 'if-match': '*' });
    expect(none.status).toBe(412);
    expect(none.body.error).toMatchObject({ code: 'stale_write', current: null, etag: null });
    await call('PUT', '/cms/site_d', { site_name: 'First' });
    const { etag } = await call('GET', '/cms/site_d');
    const fresh = await call('PUT', '/cms/site_d', { site_name: 'Second' }, { 'if-match': etag as string });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.etag).toBe((await call('GET', '/cms/site_d')).etag);
    const stale = await call('PATCH', '/cms/site_d', { site_name: 'Third' }, { 'if-match': etag as string });
    expect(stale.status).toBe(412);
    expect(stale.body.error.current.site_name).toBe('Second');
    expect((await call('GET', '/cms/site_d')).body.rows[0].site_name).toBe('Second');
  });

  it('two first PUTs at once make one row', async () => {
    await newSingleType('site-e');
    const answers = await Promise.all([
      call('PUT', '/cms/site_e', { site_name: 'Left' }),
      call('PUT', '/cms/site_e', { site_name: 'Right' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
    expect((await call('GET', '/cms/site_e')).body.total).toBe(1);
  });

  it('keeps revisions and reports its writes in the change feed', async () => {
    await newSingleType('site-f');
    const { body: row } = await call('PUT', '/cms/site_f', { site_name: 'Rev one' });
    await call('PUT', '/cms/site_f', { site_name: 'Rev two' });
    const revisions = await call('GET', `/cms/site_f/${row.id}/revisions`);
    expect(revisions.status).toBe(200);
    expect(revisions.body.revisions.length).toBe(2);
    const feed = await call('GET', '/changes?since=0&limit=1000');
    expect(feed.status).toBe(200);
    const mine = feed.body.changes.filter((change: { type: string }) => change.type === 'site_f');
    expect(mine.map((change: { id: string }) => change.id)).toContain(row.id);
  });

  it('refuses a kind that is not collection or single', async () => {
    const bad = await call('POST', '/cms-content', { title: 'Odd', type: 'many', columns: SETTINGS_COLUMNS });
    expect(bad.status).toBe(400);
    expect(bad.body.error.problems.type).toEqual({ code: 'not_an_option', options: ['collection', 'single'] });
    expect((await call('GET', '/cms/odd')).status).toBe(404);
  });
});

describe('changing the kind', () => {
  it('a collection with more than one row stays one: a 409 naming the count', async () => {
    const made = await call('POST', '/cms-content', {
      title: 'Footer many',
      slug: 'footer-many',
      columns: SETTINGS_COLUMNS,
    });
    expect(made.status).toBe(201);
    await call('POST', '/cms/footer_many', { site_name: 'a' });
    await call('POST', '/cms/footer_many', { site_name: 'b' });
    const refused = await call('PUT', '/cms-content/footer-many', { type: 'single' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('single_row_type');
    expect(refused.body.error.problems.type).toEqual({ code: 'holds_rows', title: 'Footer many', count: 2 });
    expect(refused.body.error.message).toContain('2 rows');
    expect((await call('GET', '/cms-content/footer-many')).body.type).toBe('collection');
  });

  it('a collection with one row becomes single, its row the one row, and back; the change log names it', async () => {
    await call('POST', '/cms-content', { title: 'Footer one', slug: 'footer-one', columns: SETTINGS_COLUMNS });
    const { body: row } = await call('POST', '/cms/footer_one', { site_name: 'Only' });
    const changed = await call('PUT', '/cms-content/footer-one', { type: 'single' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.type).toBe('single');
    const read = await call('GET', '/cms/footer_one');
    expect(read.body).toMatchObject({ count: 1, rows: [{ id: row.id, site_name: 'Only' }] });
    expect(read.body.meta).toBeDefined();
    expect((await call('POST', '/cms/footer_one', { site_name: 'Second' })).status).toBe(409);

    const log = await call('GET', '/cms-content-changes?type=footer-one');
    expect(log.body.changes[0].detail.type).toEqual({ from: 'collection', to: 'single' });

    const back = await call('PUT', '/cms-content/footer-one', { type: 'collection' });
    expect(back.body.type).toBe('collection');
    expect((await call('POST', '/cms/footer_one', { site_name: 'Second' })).status).toBe(201);
    const list = await call('GET', '/cms/footer_one');
    expect(list.body.total).toBe(2);
    expect(list.body.meta).toBeUndefined();
  });

  it('a body read with GET and sent back unchanged is accepted', async () => {
    const created = await newSingleType('site-g');
    const { rows: _rows, ...described } = (await call('GET', '/cms-content/site-g')).body;
    const again = await call('PUT', '/cms-content/site-g', described);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.type).toBe(created.type);
  });
});

describe('its row as any row', () => {
  it('takes a scheduled status change', async () => {
    const made = await call('POST', '/cms-content', {
      title: 'Home page',
      slug: 'home-page',
      type: 'single',
      columns: [
        { name: 'heading', label: 'Heading', type: 'text', required: true },
        {
          name: 'status',
          label: 'Status',
          type: 'select',
          required: true,
          options: [
            { id: 'draft', text: 'Draft' },
            { id: 'published', text: 'Published' },
          ],
        },
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { body: row } = await call('PUT', '/cms/home_page', { heading: 'Welcome', status: 'draft' });
    const scheduled = await call('POST', `/cms/home_page/${row.id}/schedule`, {
      status: 'published',
      at: '2099-01-01 07:00:00',
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBeLessThan(300);
    expect((await call('GET', '/cms/home_page')).body.rows[0].schedule).toMatchObject({ status: 'published' });
  });

  it('a row in the trash of a collection made single is not restored while the one row exists', async () => {
    await call('POST', '/cms-content', { title: 'Banner', slug: 'banner', columns: SETTINGS_COLUMNS });
    const { body: kept } = await call('POST', '/cms/banner', { site_name: 'Kept' });
    const { body: gone } = await call('POST', '/cms/banner', { site_name: 'Gone' });
    expect((await call('DELETE', `/cms/banner/${gone.id}`)).status).toBe(200);
    expect((await call('PUT', '/cms-content/banner', { type: 'single' })).status).toBe(200);
    const restore = await call('POST', `/cms/banner/trash/${gone.id}/restore`);
    expect(restore.status, JSON.stringify(restore.body)).toBe(409);
    expect(restore.body.error.code).toBe('single_row_type');
    const read = await call('GET', '/cms/banner');
    expect(read.body).toMatchObject({ total: 1, rows: [{ id: kept.id }] });
  });
});

describe('the API description', () => {
  it('OpenAPI gives a single type its one row at /cms/:type (GET, PUT, PATCH) and no create or delete', async () => {
    await newSingleType('site-h');
    const { body: document } = await call('GET', '/openapi.json');
    const own = document.paths['/cms/site_h'];
    expect(Object.keys(own).sort()).toEqual(['get', 'patch', 'put']);
    expect(own.put.responses['201']).toBeDefined();
    expect(Object.keys(document.paths['/cms/site_h/{id}']).sort()).toEqual(['get', 'parameters', 'patch', 'put']);
    expect(document.paths['/cms/news'].post).toBeDefined();
  });

  it('the generated types mark its kind and give it no list', async () => {
    await newSingleType('site-i');
    const response = await fetch(`${server.api}/types.d.ts`);
    const text = await response.text();
    expect(text).toMatch(/site_i: \{ kind: 'single'; row: \w+; item: \w+ \};/);
    expect(text).toMatch(/news: \{ kind: 'collection'; row: \w+; list: \w+; item: \w+ \};/);
  });
});
