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

describe('relations to a content type the credential may not read', () => {
  /** A token that may use `articles` only: their `category` points at categories, which it may not read. */
  let articlesOnly: Record<string, string>;
  let articleId: string;

  beforeAll(async () => {
    const token = await request(server, 'POST', '/tokens', {
      json: { name: 'article-bot', role: 'editor', content_types: ['articles'] },
      headers: team.admin,
    });
    expect(token.response.status, token.text).toBe(201);
    articlesOnly = { authorization: `Bearer ${token.body.token}` };
    const listed = await request(server, 'GET', '/cms/articles?filter=title=Secret%20merger%20plan', {
      headers: team.admin_token,
    });
    expect(listed.body.rows, listed.text).toHaveLength(1);
    articleId = String(listed.body.rows[0].id);
  });

  /** What a limited answer must never hold: the related row's id, title and slug, or its type's name. */
  const expectNothingOfTheCategory = (text: string) => {
    expect(text).not.toContain(categoryId);
    expect(text).not.toContain('Doomed category');
    expect(text).not.toContain('doomed-category');
    expect(text).not.toContain('categories');
  };

  /** The stored category of the article, as the admin reads it. */
  const storedCategory = async () => {
    const read = await request(server, 'GET', `/cms/articles/${articleId}`, { headers: team.admin_token });
    expect(read.response.status, read.text).toBe(200);
    return read.body.rows[0].category;
  };

  it('reads as null in lists and single rows, by every spelling of their path, whoever read first', async () => {
    // The admin reads first, so a cached page of the list is there when the limited token asks.
    for (const path of ['/cms/articles', '/cms/articles/', `/cms/articles/${articleId}`]) {
      const full = await request(server, 'GET', path, { headers: team.admin_token });
      expect(full.response.status, full.text).toBe(200);
      const fullRow = full.body.rows.find((row: { id: string }) => row.id === articleId);
      expect(fullRow.category).toEqual(expect.objectContaining({ id: categoryId, title: 'Doomed category' }));
      const limited = await request(server, 'GET', path, { headers: articlesOnly });
      expect(limited.response.status, limited.text).toBe(200);
      const row = limited.body.rows.find((one: { id: string }) => one.id === articleId);
      expect(row).toBeDefined();
      expect(row.category).toBeNull();
      expect(row.title).toBe('Secret merger plan');
      expectNothingOfTheCategory(limited.text);
      // The admin's tag does not pass the admin's answer off as the limited one's.
      const revalidated = await request(server, 'GET', path, {
        headers: { ...articlesOnly, 'if-none-match': full.response.headers.get('etag') as string },
      });
      expect(revalidated.response.status).toBe(200);
      expectNothingOfTheCategory(revalidated.text);
    }
    // The limited token first, the admin after: each still gets its own answer.
    const search = '/cms/articles?filter=search=merger';
    const limited = await request(server, 'GET', search, { headers: articlesOnly });
    expect(limited.body.rows[0].category).toBeNull();
    const full = await request(server, 'GET', search, { headers: team.admin_token });
    expect(full.body.rows[0].category).toEqual(expect.objectContaining({ id: categoryId }));
  });

  it('is described without its target, and can be neither filtered nor ordered on', async () => {
    const limited = await request(server, 'GET', '/cms/articles', { headers: articlesOnly });
    const column = limited.body.columns.find((one: { name: string }) => one.name === 'category');
    expect(column).toEqual(
      expect.objectContaining({ name: 'category', type: 'relation', filterable: false, orderable: false }),
    );
    expect(column.target).toBeUndefined();
    const types = await request(server, 'GET', '/cms-content', { headers: articlesOnly });
    expect(types.response.status, types.text).toBe(200);
    expect(types.body.content_types.map((type: { slug: string }) => type.slug)).toEqual(['articles']);
    expectNothingOfTheCategory(types.text);
    const one = await request(server, 'GET', '/cms-content/articles', { headers: articlesOnly });
    expect(one.response.status, one.text).toBe(200);
    expect(one.body.rows.find((row: { id: string }) => row.id === articleId).category).toBeNull();
    expect(one.body.columns.find((c: { name: string }) => c.name === 'category').target).toBeUndefined();
    expectNothingOfTheCategory(one.text);
    const probe = await request(server, 'GET', '/cms-content/articles?filter=category.slug=doomed-category', {
      headers: articlesOnly,
    });
    expect(probe.response.status, probe.text).toBe(403);
    const full = await request(server, 'GET', '/cms/articles', { headers: team.admin_token });
    const fullColumn = full.body.columns.find((one: { name: string }) => one.name === 'category');
    expect(fullColumn).toEqual(expect.objectContaining({ target: 'categories', filterable: true }));
  });

  it('refuses filters and orders on it alike whether the probed row exists or not', async () => {
    const probes = [
      'filter=category.slug=doomed-category',
      'filter=category.slug=no-such-category',
      'filter=category.title=Doomed',
      `filter=category=${categoryId}`,
      'filter=category=no-such-id',
      'filter=category:empty',
      'filter=category:notempty',
      `filter=category:in=${categoryId}|x`,
      'order=category',
    ];
    const answers = new Set<string>();
    for (const probe of probes) {
      for (const path of [`/cms/articles?${probe}`, `/cms/articles/?${probe}`]) {
        const { response, body, text } = await request(server, 'GET', path, { headers: articlesOnly });
        expect(response.status, `${probe}: ${text}`).toBe(403);
        expect(body.error.code).toBe('forbidden');
        expectNothingOfTheCategory(text);
        answers.add(body.error.message);
      }
    }
    // One answer for every probe: nothing tells an existing slug or id from a missing one.
    expect(answers.size).toBe(1);
    const full = await request(server, 'GET', '/cms/articles?filter=category.slug=doomed-category', {
      headers: team.admin_token,
    });
    expect(full.response.status, full.text).toBe(200);
    expect(full.body.rows.map((row: { id: string }) => row.id)).toEqual([articleId]);
  });

  it('keeps its value when a write sends back the null it read, and refuses any other value', async () => {
    const read = await request(server, 'GET', `/cms/articles/${articleId}`, { headers: articlesOnly });
    const row = read.body.rows[0];
    expect(row.category).toBeNull();
    // The whole row as read, with a new title: the relation stays.
    const put = await request(server, 'PUT', `/cms/articles/${articleId}`, {
      json: { ...row, title: 'Secret merger plan, revised' },
      headers: articlesOnly,
    });
    expect(put.response.status, put.text).toBe(200);
    expect(put.body.title).toBe('Secret merger plan, revised');
    expect(put.body.category).toBeNull();
    expectNothingOfTheCategory(put.text);
    expect(await storedCategory()).toEqual(expect.objectContaining({ id: categoryId }));
    // A form write sends it back as an empty value: kept as well.
    const form = await request(server, 'PATCH', `/cms/articles/${articleId}`, {
      body: { title: 'Secret merger plan', category: '' },
      headers: articlesOnly,
    });
    expect(form.response.status, form.text).toBe(200);
    expect(await storedCategory()).toEqual(expect.objectContaining({ id: categoryId }));
    // Setting it (to a row that exists or not) is refused alike, and changes nothing.
    const answers = new Set<string>();
    for (const value of [categoryId, 'no-such-id', { id: categoryId }]) {
      const refused = await request(server, 'PATCH', `/cms/articles/${articleId}`, {
        json: { title: 'Changed anyway', category: value },
        headers: articlesOnly,
      });
      expect(refused.response.status, refused.text).toBe(403);
      expectNothingOfTheCategory(refused.text);
      answers.add(refused.body.error.message);
    }
    expect(answers.size).toBe(1);
    const after = await request(server, 'GET', `/cms/articles/${articleId}`, { headers: team.admin_token });
    expect(after.body.rows[0].title).toBe('Secret merger plan');
    expect(after.body.rows[0].category).toEqual(expect.objectContaining({ id: categoryId }));
    // A new row may leave it empty (null or left out), but not point it anywhere.
    const created = await request(server, 'POST', '/cms/articles', {
      json: { title: 'Limited article', status: 'draft', published_at: '2026-01-02 10:00:00', category: null },
      headers: articlesOnly,
    });
    expect(created.response.status, created.text).toBe(201);
    expect(created.body.rows[0].category).toBeNull();
    const pointed = await request(server, 'POST', '/cms/articles', {
      json: { title: 'Pointed article', status: 'draft', published_at: '2026-01-02 10:00:00', category: categoryId },
      headers: articlesOnly,
    });
    expect(pointed.response.status, pointed.text).toBe(403);
    expectNothingOfTheCategory(pointed.text);
    // The admin's answer to the same write still shows the relation.
    const byAdmin = await request(server, 'PATCH', `/cms/articles/${articleId}`, {
      json: { title: 'Secret merger plan' },
      headers: team.admin_token,
    });
    expect(byAdmin.body.category).toEqual(expect.objectContaining({ id: categoryId }));
  });

  it('shows a revision of the row with the relation as null', async () => {
    const list = await request(server, 'GET', `/cms/articles/${articleId}/revisions`, { headers: articlesOnly });
    expect(list.response.status, list.text).toBe(200);
    const first = list.body.revisions.at(-1);
    const revision = await request(server, 'GET', `/cms/articles/${articleId}/revisions/${first.id}`, {
      headers: articlesOnly,
    });
    expect(revision.response.status, revision.text).toBe(200);
    expect(revision.body.row.category).toBeNull();
    expectNothingOfTheCategory(revision.text);
  });

  it('is described as always null in openapi.json and types.d.ts', async () => {
    const document = await request(server, 'GET', '/openapi.json', { headers: articlesOnly });
    expect(document.response.status, document.text).toBe(200);
    expectNothingOfTheCategory(document.text);
    const schemas = document.body.components.schemas as Record<string, any>;
    const rowSchema = Object.values(schemas).find(
      (schema) => typeof schema.description === 'string' && schema.description.includes('(/api/cms/articles)'),
    );
    expect(rowSchema?.properties.category).toEqual(expect.objectContaining({ type: 'null' }));
    const declarations = await request(server, 'GET', '/types.d.ts', { headers: articlesOnly });
    expect(declarations.response.status, declarations.text).toBe(200);
    expect(declarations.text).not.toMatch(/categories/i);
    expect(declarations.text).toMatch(/\bcategory\??: null\b/);
    const full = await request(server, 'GET', '/openapi.json', { headers: team.admin_token });
    expect(full.text).toContain('categories');
  });
});
