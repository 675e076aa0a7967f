import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * One title rule everywhere: a type whose slug is made from `name` (no column called `title`) is
 * named by `name` in relation values, blocking references, page meta and search.
 */
let server: TestServer;
let authorId: string;

beforeAll(async () => {
  server = await startTestServer();
  const authors = await request(server, 'POST', '/cms-content', {
    json: {
      title: 'Authors',
      columns: [
        { name: 'bio', label: 'Bio', type: 'textarea', required: false },
        { name: 'name', label: 'Name', type: 'text', required: true },
        { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
      ],
    },
  });
  expect(authors.response.status, authors.text).toBe(201);
  const books = await request(server, 'POST', '/cms-content', {
    json: {
      title: 'Books',
      columns: [
        { name: 'heading', label: 'Heading', type: 'text', required: true },
        { name: 'author', label: 'Author', type: 'relation', required: false, target: 'authors' },
      ],
    },
  });
  expect(books.response.status, books.text).toBe(201);
  const author = await request(server, 'POST', '/cms/authors', { body: { name: 'Ursula Le Guin', bio: 'Earthsea' } });
  expect(author.response.status, author.text).toBe(201);
  authorId = author.body.id;
});
afterAll(() => server.dispose());

describe('a type titled by a column that is not called title', () => {
  it('publishes its title and search columns', async () => {
    const { body } = await request(server, 'GET', '/cms-content');
    const byTable = Object.fromEntries(body.content_types.map((type: { table: string }) => [type.table, type]));
    expect(byTable.authors).toMatchObject({ title_column: 'name', search_columns: ['name', 'slug'] });
    expect(byTable.books).toMatchObject({ title_column: 'heading', search_columns: ['heading'] });
  });

  it('names the related row by its name in written and read relation values', async () => {
    const created = await request(server, 'POST', '/cms/books', {
      body: { heading: 'The Dispossessed', author: authorId },
    });
    expect(created.response.status, created.text).toBe(201);
    const expected = { id: authorId, title: 'Ursula Le Guin', slug: 'ursula-le-guin' };
    expect(created.body.rows[0].author).toEqual(expected);
    const list = await request(server, 'GET', '/cms/books');
    expect(list.body.rows[0].author).toEqual(expected);
  });

  it('finds rows by any part of the name, not only the slug', async () => {
    for (const keyword of ['Le Guin', 'ursula', 'guin']) {
      const { body } = await request(server, 'GET', `/cms/authors?filter=${encodeURIComponent(`search=${keyword}`)}`);
      expect(body.filtered, keyword).toBe(1);
    }
    const { body } = await request(server, 'GET', `/cms/authors?filter=${encodeURIComponent('search=earthsea')}`);
    expect(body.filtered).toBe(0);
  });

  it('uses the name as the page title and to name the rows that block a delete', async () => {
    const { body } = await request(server, 'GET', `/cms/authors/${authorId}`);
    expect(body.meta.title).toBe('Ursula Le Guin');
    const refused = await request(server, 'DELETE', `/cms/authors/${authorId}`);
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.references).toEqual([
      expect.objectContaining({ table: 'books', title: 'The Dispossessed', column: 'author' }),
    ]);
  });
});
