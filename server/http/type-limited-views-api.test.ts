import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A credential limited to some content types is answered with only what it may read: a refused
 * delete counts the referencing rows of other types without naming them, and the content-type
 * list, the OpenAPI document and the TypeScript declarations describe its types only.
 */
let server: TestServer;
let team: Credentials;
/** A token that may use `categories` only. */
let categoriesOnly: Record<string, string>;
let categoryId: string;

beforeAll(async () => {
  server = await startTestServer();
  team = await makeTeam(server);
  const token = await request(server, 'POST', '/tokens', {
    json: { name: 'cat-bot', role: 'editor', content_types: ['categories'] },
    headers: team.admin,
  });
  expect(token.response.status, token.text).toBe(201);
  categoriesOnly = { authorization: `Bearer ${token.body.token}` };
  const category = await request(server, 'POST', '/cms/categories', {
    json: { title: 'Doomed category' },
    headers: team.admin_token,
  });
  expect(category.response.status, category.text).toBe(201);
  categoryId = String(category.body.id);
  const article = await request(server, 'POST', '/cms/articles', {
    json: {
      title: 'Secret merger plan',
      status: 'draft',
      published_at: '2026-01-01 10:00:00',
      category: categoryId,
    },
    headers: team.admin_token,
  });
  expect(article.response.status, article.text).toBe(201);
});
afterAll(() => server.dispose());

describe('a refused delete', () => {
  it('names the referencing rows to a credential that may read their type', async () => {
    const { response, body, text } = await request(server, 'DELETE', `/cms/categories/${categoryId}`, {
      headers: team.admin_token,
    });
    expect(response.status, text).toBe(409);
    expect(body.error.references).toEqual([
      expect.objectContaining({ table: 'articles', title: 'Secret merger plan', column: 'category' }),
    ]);
    expect(body.error.other_references).toBeUndefined();
  });

  it('counts, and does not name, rows of types a limited credential may not read', async () => {
    const { response, body, text } = await request(server, 'DELETE', `/cms/categories/${categoryId}`, {
      headers: categoriesOnly,
    });
    expect(response.status, text).toBe(409);
    expect(body.error.code).toBe('conflict');
    expect(body.error.references).toEqual([]);
    expect(body.error.other_references).toBe(1);
    expect(text).not.toContain('Secret merger plan');
    expect(text).not.toContain('articles');
    expect(body.error.message).toContain('1 row of content types you may not read');
    // Refused: the category is still there.
    const still = await request(server, 'GET', `/cms/categories/${categoryId}`, { headers: categoriesOnly });
    expect(still.response.status, still.text).toBe(200);
  });
});

describe('descriptions of the API', () => {
  it('lists only the content types a limited credential may read', async () => {
    const limited = await request(server, 'GET', '/cms-content', { headers: categoriesOnly });
    expect(limited.response.status, limited.text).toBe(200);
    expect(limited.body.content_types.map((type: { slug: string }) => type.slug)).toEqual(['categories']);
    expect(limited.body.count).toBe(1);
    const news = await request(server, 'GET', '/cms-content', { headers: team.news_token });
    expect(news.body.content_types.map((type: { slug: string }) => type.slug)).toEqual(['news']);
    const all = await request(server, 'GET', '/cms-content', { headers: team.admin_token });
    expect(all.body.content_types.map((type: { slug: string }) => type.slug)).toEqual(
      expect.arrayContaining(['articles', 'categories', 'news']),
    );
    expect(limited.response.headers.get('vary')).toMatch(/authorization/i);
  });

  it('describes only those types in the OpenAPI document, with an ETag of its own', async () => {
    const limited = await request(server, 'GET', '/openapi.json', { headers: categoriesOnly });
    expect(limited.response.status, limited.text).toBe(200);
    const tables = limited.body['x-quire-content-types'].map((type: { table: string }) => type.table);
    expect(tables).toEqual(['categories']);
    const paths = Object.keys(limited.body.paths);
    expect(paths).toContain('/cms/categories');
    expect(paths.filter((path) => /\/cms\/(articles|news)\b/.test(path))).toEqual([]);
    expect(limited.text).not.toMatch(/"(Articles|News)"/);
    const all = await request(server, 'GET', '/openapi.json', { headers: team.admin_token });
    expect(Object.keys(all.body.paths)).toContain('/cms/articles');
    const limitedTag = limited.response.headers.get('etag');
    expect(limitedTag).not.toBe(all.response.headers.get('etag'));
    // The full document's tag does not revalidate the limited credential's copy as current.
    const revalidated = await request(server, 'GET', '/openapi.json', {
      headers: { ...categoriesOnly, 'if-none-match': all.response.headers.get('etag') as string },
    });
    expect(revalidated.response.status).toBe(200);
    expect(revalidated.body['x-quire-content-types']).toHaveLength(1);
  });

  it('declares only those types in types.d.ts', async () => {
    const limited = await request(server, 'GET', '/types.d.ts', { headers: categoriesOnly });
    expect(limited.response.status, limited.text).toBe(200);
    expect(limited.text).toMatch(/\bCategories\b/);
    expect(limited.text).not.toMatch(/\b(Articles|News)\b/);
    const all = await request(server, 'GET', '/types.d.ts', { headers: team.admin_token });
    expect(all.text).toMatch(/\bArticles\b/);
  });
});
