import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { databaseSnapshot } from '../test-support/hostile-http.js';
import { newsBody } from '../test-support/seed.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Revisions, the trash, schedules and hooks against credentials that must not reach them: a token limited to
 * news reaching for an article's revisions, its trash, its schedule; a viewer scheduling or
 * restoring; anyone but an admin near the hooks. Each is a 403 (401 without a credential) in the
 * error shape, shows none of the row's content, carries no validator, and changes nothing.
 */

let server: TestServer;
let team: Credentials;
let article: string;
let articleRevision: number;
let deletedArticle: string;
let news: string;
let newsRevision: number;
let hook: string;

async function as(who: string, method: string, url: string, json?: unknown) {
  return request(server, method, url, { headers: team[who], ...(json === undefined ? {} : { json }) });
}

async function ok(who: string, method: string, url: string, json?: unknown) {
  const { response, body, text } = await as(who, method, url, json);
  expect(response.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return body;
}

const articleBody = (title: string) => ({ ...newsBody({ title: `${title} secret words` }), body: 'Secret body' });

beforeAll(async () => {
  server = await startTestServer();
  team = await makeTeam(server);
  article = (await ok('admin', 'POST', '/cms/articles', articleBody('Kept'))).id;
  articleRevision = (await ok('admin', 'GET', `/cms/articles/${article}/revisions`)).revisions[0].id;
  deletedArticle = (await ok('admin', 'POST', '/cms/articles', articleBody('Binned'))).id;
  await ok('admin', 'DELETE', `/cms/articles/${deletedArticle}`);
  news = (await ok('admin', 'POST', '/cms/news', newsBody({ title: 'Viewer bait' }))).id;
  newsRevision = (await ok('admin', 'GET', `/cms/news/${news}/revisions`)).revisions[0].id;
  await ok('admin', 'POST', `/cms/articles/${article}/schedule`, { status: 'published', at: '2099-01-01 00:00:00' });
  hook = (await ok('admin', 'POST', '/hooks', { url: 'http://127.0.0.1:9/build' })).id;
});
afterAll(async () => {
  await server?.dispose();
});

type Case = [who: string, method: string, url: () => string, status: number, json?: unknown];

const cases: Case[] = [
  ['news_token', 'GET', () => `/cms/articles/${article}/revisions`, 403],
  ['news_token', 'GET', () => `/cms/articles/${article}/revisions/${articleRevision}`, 403],
  ['news_token', 'POST', () => `/cms/articles/${article}/revisions/${articleRevision}/restore`, 403],
  ['news_token', 'GET', () => '/cms/articles/trash', 403],
  ['news_token', 'POST', () => `/cms/articles/trash/${deletedArticle}/restore`, 403],
  ['news_token', 'GET', () => `/cms/articles/${article}/schedule`, 403],
  ['news_token', 'DELETE', () => `/cms/articles/${article}/schedule`, 403],
  [
    'news_token',
    'POST',
    () => `/cms/articles/${article}/schedule`,
    403,
    { status: 'draft', at: '2098-01-01 00:00:00' },
  ],
  ['news_token', 'GET', () => '/cms/articles?filter=title%3Dx', 403],
  ['news_token', 'GET', () => '/cms-content-changes?type=articles', 403],
  ['news_token', 'GET', () => '/hooks', 403],
  ['viewer', 'POST', () => `/cms/news/${news}/revisions/${newsRevision}/restore`, 403],
  ['viewer', 'POST', () => `/cms/news/${news}/schedule`, 403, { status: 'published', at: '2099-01-01 00:00:00' }],
  ['viewer_token', 'DELETE', () => `/cms/articles/${article}/schedule`, 403],
  ['editor', 'GET', () => '/hooks', 403],
  ['editor', 'POST', () => '/hooks', 403, { url: 'http://127.0.0.1:9/other' }],
  ['editor', 'GET', () => `/hooks/${hook}/deliveries`, 403],
  ['editor', 'POST', () => `/hooks/${hook}/test`, 403],
  ['viewer_token', 'DELETE', () => `/hooks/${hook}`, 403],
  ['author', 'PATCH', () => `/hooks/${hook}`, 403, { url: 'http://127.0.0.1:9/moved' }],
  ['none', 'GET', () => `/cms/articles/${article}/revisions/${articleRevision}`, 401],
  ['bad_token', 'POST', () => `/cms/articles/trash/${deletedArticle}/restore`, 401],
  ['expired_token', 'GET', () => '/hooks', 401],
  [
    'revoked_token',
    'POST',
    () => `/cms/articles/${article}/schedule`,
    401,
    { status: 'draft', at: '2098-01-01 00:00:00' },
  ],
];

describe('credentials reaching past their limits', () => {
  for (const [who, method, url, status, json] of cases) {
    it(`${who} ${method} ${url().replace(/undefined/g, ':id')}: ${status}, nothing shown or changed`, async () => {
      await server.services.rows.searchFlushes.flush();
      const before = await databaseSnapshot(server, { withoutUseTimes: true });
      const { response, body, text } = await as(who, method, url(), json);
      expect(response.status, text).toBe(status);
      expect(body?.error?.status).toBe(status);
      expect(body.error.code).toBe(status === 401 ? 'unauthorized' : 'forbidden');
      expect(text).not.toMatch(/secret words|Secret body|127\.0\.0\.1:9/);
      expect(response.headers.get('etag')).toBeNull();
      expect(await databaseSnapshot(server, { withoutUseTimes: true })).toBe(before);
    });
  }

  it('the limited token still reads its own type’s revisions and trash', async () => {
    expect((await as('news_token', 'GET', `/cms/news/${news}/revisions/${newsRevision}`)).response.status).toBe(200);
    const trash = await as('news_token', 'GET', '/cms/news/trash');
    expect(trash.response.status).toBe(200);
    expect(trash.text).not.toContain(deletedArticle);
  });
});
