import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';

/**
 * ETags: every GET under /api has a strong tag made from its data (the `time` timings
 * left out), `Cache-Control: no-cache`, and `If-None-Match` with the current tag gets a 304 with no
 * body. A write changes the tags of the answers it changes and no others. Two servers over one
 * database tag the same answer alike. Runs on SQLite and, in `server-pg`, PostgreSQL.
 */

let opened: OpenTestDatabase;
const servers: Server[] = [];
/** Two servers over the same database. */
let viaOther: string;
let viaServer: string;
let newsIds: string[];
let culture: string;
let articleId: string;

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function send(method: string, path: string, json?: unknown): Promise<any> {
  const response = await fetch(`${viaServer}/api${path}`, {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const body = await response.json();
  expect(response.ok, JSON.stringify(body)).toBe(true);
  return body;
}

async function get(path: string, headers: Record<string, string> = {}, base = viaServer) {
  const response = await fetch(`${base}/api${path}`, { headers });
  return { response, text: await response.text(), etag: response.headers.get('etag') };
}

/** The current tag of a read (checked to be a 200 with the validator headers). */
async function tagOf(path: string, base = viaServer): Promise<string> {
  const { response, etag } = await get(path, {}, base);
  expect(response.status, path).toBe(200);
  expect(response.headers.get('cache-control'), path).toBe('no-cache');
  expect(etag, path).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
  return etag as string;
}

beforeAll(async () => {
  opened = await openTestDatabase();
  const app = await createApp({ database: opened.database, editorName: 'tester', log: () => {} });
  viaServer = await listen(app.listener);
  const other = await createApp({ database: opened.database, editorName: 'tester', log: () => {} });
  viaOther = await listen(other.listener);
  newsIds = [];
  for (const title of ['One', 'Two', 'Three']) {
    const body = await send('POST', '/cms/news', { title, status: 'published', published_at: '2025-01-01 10:00:00' });
    newsIds.push(body.id);
  }
  culture = (await send('POST', '/cms/categories', { title: 'Culture' })).id;
  await send('POST', '/cms/categories', { title: 'Sport' });
  articleId = (
    await send('POST', '/cms/articles', {
      title: 'Festival',
      status: 'draft',
      published_at: '2025-01-01 10:00:00',
      category: culture,
    })
  ).id;
});

afterAll(async () => {
  for (const server of servers) server.close();
  await opened?.dispose();
});

const READS = () => [
  '/cms/news',
  '/cms/news?filter=status%3Dpublished&order=title&limit=2',
  `/cms/news/${newsIds[0]}`,
  '/cms/categories',
  '/cms-content/news',
  '/cms-content',
  '/openapi.json',
  '/types.d.ts',
];

describe('ETag and If-None-Match', () => {
  it('tags every GET from its data: the same answer has the same tag although its timings differ', async () => {
    for (const path of READS()) {
      const first = await get(path);
      const second = await get(path);
      expect(first.response.status, path).toBe(200);
      expect(second.etag, path).toBe(first.etag);
      expect(first.etag, path).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      expect(first.response.headers.get('cache-control'), path).toBe('no-cache');
    }
    // The timings are in the body and change; the tag does not depend on them.
    const list = JSON.parse((await get('/cms/news')).text);
    expect(Object.keys(list.time)).toEqual(['total', 'init', 'filter', 'data', 'count', 'format']);
  });

  it('answers a matching If-None-Match with a 304 and no body, and anything else in full', async () => {
    for (const path of READS()) {
      const etag = await tagOf(path);
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const { response, text } = await get(path, { 'if-none-match': header });
        expect(response.status, `${path} ${header}`).toBe(304);
        expect(text).toBe('');
        expect(response.headers.get('etag')).toBe(etag);
        expect(response.headers.get('cache-control')).toBe('no-cache');
      }
      const stale = await get(path, { 'if-none-match': '"not-the-tag"' });
      expect(stale.response.status).toBe(200);
      expect(stale.text.length).toBeGreaterThan(0);
    }
  });

  it('gives the same tag and the same 304 on another server over the same data', async () => {
    for (const path of READS()) {
      const fast = await get(path);
      const other = await get(path, {}, viaOther);
      expect(fast.etag, path).toBe(other.etag);
      const revalidated = await get(path, { 'if-none-match': String(fast.etag) }, viaOther);
      expect(revalidated.response.status, path).toBe(304);
    }
  });

  it('tags errors nowhere: a 404 or 400 is not a cacheable answer', async () => {
    for (const path of ['/cms/news/no-such-row', '/cms/news?filter=nope%3D1', '/cms/nothing']) {
      const { response, etag } = await get(path);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(etag).toBeNull();
    }
  });
});

describe('a write changes the tags it affects and no others', () => {
  it('an update to a news row: its get and the news lists change; other rows and types keep theirs', async () => {
    const before = {
      row: await tagOf(`/cms/news/${newsIds[0]}`),
      other: await tagOf(`/cms/news/${newsIds[1]}`),
      list: await tagOf('/cms/news'),
      filtered: await tagOf('/cms/news?filter=status%3Dpublished'),
      categories: await tagOf('/cms/categories'),
      articles: await tagOf('/cms/articles'),
    };
    await send('PUT', `/cms/news/${newsIds[0]}`, { title: 'One, revised' });
    expect(await tagOf(`/cms/news/${newsIds[0]}`)).not.toBe(before.row);
    expect(await tagOf('/cms/news')).not.toBe(before.list);
    expect(await tagOf('/cms/news?filter=status%3Dpublished')).not.toBe(before.filtered);
    expect(await tagOf(`/cms/news/${newsIds[1]}`)).toBe(before.other);
    expect(await tagOf('/cms/categories')).toBe(before.categories);
    expect(await tagOf('/cms/articles')).toBe(before.articles);
    // A client holding the old tag now gets the new answer in full.
    const { response } = await get(`/cms/news/${newsIds[0]}`, { 'if-none-match': before.row });
    expect(response.status).toBe(200);
  });

  it("a write outside a list's selection leaves its tag alone", async () => {
    const drafts = await tagOf('/cms/news?filter=status%3Ddraft');
    await send('PUT', `/cms/news/${newsIds[1]}`, { title: 'Two, revised' });
    expect(await tagOf('/cms/news?filter=status%3Ddraft')).toBe(drafts);
  });

  it("a category's new title changes the articles that show it, not the news", async () => {
    const articles = await tagOf('/cms/articles');
    const article = await tagOf(`/cms/articles/${articleId}`);
    const news = await tagOf('/cms/news');
    await send('PUT', `/cms/categories/${culture}`, { title: 'Culture and arts' });
    expect(await tagOf('/cms/articles')).not.toBe(articles);
    expect(await tagOf(`/cms/articles/${articleId}`)).not.toBe(article);
    expect(await tagOf('/cms/news')).toBe(news);
  });

  it('a create changes the counts, so every list of that type, and no single row nor another type', async () => {
    const row = await tagOf(`/cms/news/${newsIds[2]}`);
    const list = await tagOf('/cms/news');
    const categories = await tagOf('/cms/categories');
    await send('POST', '/cms/news', { title: 'Four', status: 'draft', published_at: '2025-01-01 10:00:00' });
    expect(await tagOf('/cms/news')).not.toBe(list);
    // A row read carries its type's total, but its tag follows the row alone.
    expect(await tagOf(`/cms/news/${newsIds[2]}`)).toBe(row);
    expect(await tagOf('/cms/categories')).toBe(categories);
  });
});
