import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer;
let culture: string;
let sport: string;

beforeAll(async () => {
  server = await startTestServer();
  culture = (await request(server, 'POST', '/cms/categories', { body: { title: 'Culture' } })).body.id;
  sport = (await request(server, 'POST', '/cms/categories', { body: { title: 'Sport' } })).body.id;
});
afterAll(() => server.dispose());

const article = {
  title: 'Harbour festival',
  status: 'published',
  published_at: '2025-06-01 10:00:00',
  description: 'Boats,\nmusic and food.',
  body: '# Festival\n\nAll *weekend*.',
  image: '/media/2026/11/01a2044d-71da-7029-9f40-4aee790ee7d5.png',
};

describe('articles (the spec’s article-like type)', () => {
  it('creates a row with every rich field from a form, tags as tags[]', async () => {
    const body = `${new URLSearchParams({ ...article, category: culture, 'meta[title]': 'Festival | Gazette' })}&tags[]=boats&tags[]=music`;
    const { response, body: created } = await request(server, 'POST', '/cms/articles', { body });
    expect(response.status, JSON.stringify(created)).toBe(201);
    const [row] = created.rows;
    expect(Object.keys(row)).toEqual([
      'id',
      'title',
      'slug',
      'status',
      'published_at',
      'description',
      'body',
      'image',
      'tags',
      'category',
      'meta',
      'meta_title',
      'meta_description',
      'meta_keywords',
      'created_at',
      'updated_at',
      'created_by',
      'updated_by',
    ]);
    expect(row).toMatchObject({
      ...article,
      slug: 'harbour-festival',
      tags: ['boats', 'music'],
      category: { id: culture, title: 'Culture', slug: 'culture' },
      meta: { title: 'Festival | Gazette', description: '', keywords: '' },
      meta_title: 'Festival | Gazette',
      meta_description: null,
      meta_keywords: null,
    });
  });

  it('accepts repeated tags keys and JSON arrays', async () => {
    const form = `${new URLSearchParams({ ...article, title: 'Repeated' })}&tags=a&tags=b`;
    expect((await request(server, 'POST', '/cms/articles', { body: form })).body.rows[0].tags).toEqual(['a', 'b']);
    const json = await request(server, 'POST', '/cms/articles', {
      json: { ...article, title: 'Json', tags: ['x', 'y'], category: null },
    });
    expect(json.body.rows[0]).toMatchObject({ tags: ['x', 'y'], category: null, meta_title: null });
  });

  it('reads the row back with its relation resolved and the page meta from description and tags', async () => {
    const { body: created } = await request(server, 'POST', '/cms/articles', {
      json: { ...article, title: 'Read back', tags: ['harbour', 'summer'], category: sport },
    });
    const { body } = await request(server, 'GET', `/cms/articles/${created.id}`);
    expect(body.rows[0].category).toEqual({ id: sport, title: 'Sport', slug: 'sport' });
    expect(body.meta).toEqual({
      title: 'Read back',
      description: 'Boats,\nmusic and food.',
      keywords: 'harbour, summer',
    });
  });

  it('shows a related row’s new title after it is renamed', async () => {
    const { body: created } = await request(server, 'POST', '/cms/articles', {
      json: { ...article, title: 'Renamed cat', category: sport },
    });
    await request(server, 'PUT', `/cms/categories/${sport}`, { body: { title: 'Sports' } });
    const { body } = await request(server, 'GET', `/cms/articles?filter=search=renamed`);
    expect(body.rows[0].category).toMatchObject({ id: sport, title: 'Sports' });
    expect(created.rows[0].category.title).toBe('Sport');
  });

  it('refuses a category id that does not exist, naming the field', async () => {
    const { response, body } = await request(server, 'POST', '/cms/articles', {
      json: { ...article, category: 'nope' },
    });
    expect(response.status).toBe(400);
    expect(body.error.fields.category).toMatch(/must be the id of a categories row/);
  });

  it.each([
    [{ image: '../../etc/passwd' }, 'image'],
    [{ image: 'https://elsewhere.example/a.png' }, 'image'],
    [{ tags: [1, 2] }, 'tags'],
    [{ body: ['a', 'b'] }, 'body'],
  ])('refuses %j', async (fields, field) => {
    const { response, body } = await request(server, 'POST', '/cms/articles', { json: { ...article, ...fields } });
    expect(response.status).toBe(400);
    expect(Object.keys(body.error.fields)).toEqual([field]);
  });

  it('filters by relation id and by tag membership', async () => {
    const byCategory = (await request(server, 'GET', `/cms/articles?filter=category=${culture}`)).body;
    expect(byCategory.filtered).toBe(1);
    expect(byCategory.rows[0].title).toBe('Harbour festival');
    const byTag = (await request(server, 'GET', '/cms/articles?filter=tags=music')).body;
    expect(byTag.rows.map((row: { title: string }) => row.title)).toEqual(['Harbour festival']);
    expect((await request(server, 'GET', '/cms/articles?filter=tags=mus')).body.filtered).toBe(0);
  });

  it('refuses ordering by tags', async () => {
    expect((await request(server, 'GET', '/cms/articles?order=tags')).response.status).toBe(400);
  });

  it('refuses to delete a category still in use, naming the rows, and deletes it once unused', async () => {
    const refused = await request(server, 'DELETE', `/cms/categories/${culture}`);
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.references).toEqual([
      { table: 'articles', id: expect.any(String), title: 'Harbour festival', column: 'category' },
    ]);
    expect(refused.body.error.message).toContain('Harbour festival');
    expect((await request(server, 'GET', `/cms/categories/${culture}`)).response.status).toBe(200);

    const [{ id }] = refused.body.error.references;
    await request(server, 'PUT', `/cms/articles/${id}`, { body: { category: '' } });
    expect((await request(server, 'DELETE', `/cms/categories/${culture}`)).response.status).toBe(200);
  });
});

describe('menu items', () => {
  it('nest through a parent relation to the same type, and sort by position numerically', async () => {
    const home = (
      await request(server, 'POST', '/cms/menu_items', {
        body: { title: 'Home', url: '/', position: '10', status: 'published' },
      })
    ).body;
    await request(server, 'POST', '/cms/menu_items', {
      body: { title: 'News', url: '/news', position: '2', parent: home.id, status: 'published' },
    });
    await request(server, 'POST', '/cms/menu_items', {
      body: { title: 'About', url: '/about', position: '9.5', status: 'draft' },
    });
    const { body } = await request(server, 'GET', '/cms/menu_items?order=position');
    expect(body.rows.map((row: { title: string; position: number }) => [row.title, row.position])).toEqual([
      ['News', 2],
      ['About', 9.5],
      ['Home', 10],
    ]);
    expect(body.rows[0].parent).toEqual({ id: home.id, title: 'Home', slug: 'home' });
    expect((await request(server, 'GET', `/cms/menu_items?filter=parent=${home.id}`)).body.filtered).toBe(1);
    expect((await request(server, 'GET', '/cms/menu_items?filter=position=9.5')).body.rows[0].title).toBe('About');
  });

  it('refuses a position that is not a number', async () => {
    const { response, body } = await request(server, 'POST', '/cms/menu_items', {
      body: { title: 'X', position: 'first', status: 'draft' },
    });
    expect(response.status).toBe(400);
    expect(body.error.fields).toEqual({ position: 'must be a number, like 42 or 3.5' });
  });
});
