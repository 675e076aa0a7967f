import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { databaseSnapshot, type RawAnswer, rawRequest, sendBytes } from '../test-support/hostile-http.js';
import { newsBody } from '../test-support/seed.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Request targets not in normal form (a fragment, a backslash, dot segments, doubled slashes,
 * encoded separators, control characters) are refused with a 400 before any guard decides, so no
 * credential is ever checked against one path while the router serves another. Sent raw: `fetch`
 * would normalize each of them first.
 */

let server: TestServer;
let as: Credentials;
let hookId: string;
let newsId: string;

beforeAll(async () => {
  server = await startTestServer();
  as = await makeTeam(server);
  const hook = await request(server, 'POST', '/hooks', {
    json: { url: 'https://builds.example/hook' },
    headers: as.admin_token,
  });
  expect(hook.response.status, hook.text).toBe(201);
  hookId = hook.body.id;
  const row = await request(server, 'POST', '/cms/news', { json: newsBody(), headers: as.admin_token });
  expect(row.response.status, row.text).toBe(201);
  newsId = row.body.rows[0].id;
});
afterAll(async () => {
  await server?.dispose();
});

const get = (path: string, headers: Record<string, string>) =>
  rawRequest(server.origin, { path, headers: { ...headers, host: `127.0.0.1:${server.port}` } });

/** A refusal of the target itself: 400, the JSON error shape, the machine code, nothing else told. */
function expectNotNormal(answer: RawAnswer, path: string): void {
  expect(answer.status, `${path}: ${answer.text}`).toBe(400);
  expect(answer.body?.error?.code, path).toBe('bad_request');
  expect(answer.body.error.detail?.code, path).toBe('target_not_normal');
  expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
}

describe('a credential is checked against the path the router serves', () => {
  it('a viewer gets nothing from accounts, tokens or hooks by a fragment or a backslash', async () => {
    for (const path of [
      '/api/accounts#',
      '/api/tokens#x',
      '/api\\accounts',
      '/api/hooks#',
      `/api/hooks\\${hookId}\\deliveries#`,
      `/api/hooks/${hookId}\\deliveries`,
    ]) {
      for (const who of ['viewer', 'viewer_token'] as const) {
        const answer = await get(path, as[who]);
        expectNotNormal(answer, `${who} ${path}`);
        expect(answer.text).not.toContain('vera');
        expect(answer.text).not.toContain('builds.example');
      }
    }
  });

  it('a token limited to news reads no other type by a fragment or a backslash', async () => {
    for (const path of ['/api/cms\\categories#', '/api/cms/categories#', '/api/cms-content\\categories#']) {
      expectNotNormal(await get(path, as.news_token), path);
    }
    // The same token still reads its own type.
    expect((await get('/api/cms/news', as.news_token)).status).toBe(200);
  });
});

describe('targets not in normal form are refused before any guard, on every path', () => {
  const spellings = (id: () => string) => [
    '/api/cms/news#',
    '/api/cms/news?limit=1#top',
    '/api/cms\\news',
    '/api/cms/news\\',
    '/api/./cms/news',
    '/api/cms/./news',
    '/api/cms/x/../news',
    '/api/cms/news/..',
    '/api/cms/news/.',
    '/api//cms/news',
    '/api/cms//news',
    '/api/cms%2Fnews',
    '/api/cms%2fnews',
    '/api/cms%5Cnews',
    '/api/cms/%2E%2E/accounts',
    '/api/cms/%2e/news',
    '/api/cms/.%2E/accounts',
    '/api/cms/news%0A',
    '/api/cms/news%7F',
    '/api/cms/news%00',
    `/api/cms/news/${id()}#`,
    `/api/cms/news/${id()}%2F`,
    `/api/cms/news\\${id()}`,
    '/media/..%2Fcontent.sqlite',
    '/editor/..\\x',
  ];

  it('as an admin (so no role refuses it first), on the row routes and the others', async () => {
    for (const path of spellings(() => newsId)) {
      expectNotNormal(await get(path, as.admin_token), path);
    }
  });

  it('writes with such a target change nothing, row writes included', async () => {
    const before = await databaseSnapshot(server, { withoutUseTimes: true });
    for (const [method, path] of [
      ['POST', '/api/cms\\news'],
      ['POST', '/api/cms/news#'],
      ['PATCH', `/api/cms/news/${newsId}#`],
      ['PUT', `/api/cms/news\\${newsId}`],
      ['DELETE', `/api/cms/news/%2E%2E/${newsId}`],
      ['DELETE', `/api/tokens\\ci#`],
    ]) {
      const answer = await rawRequest(server.origin, {
        method,
        path,
        headers: { ...as.admin_token, 'content-type': 'application/json', host: `127.0.0.1:${server.port}` },
        body: JSON.stringify(newsBody({ title: 'Should not be written' })),
      });
      expectNotNormal(answer, `${method} ${path}`);
    }
    expect(await databaseSnapshot(server, { withoutUseTimes: true })).toBe(before);
  });

  it('a raw request line with a fragment or backslash is refused the same way', async () => {
    const answer = await sendBytes(
      server.origin,
      `GET /api/accounts# HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: ${as.viewer_token.authorization}\r\nConnection: close\r\n\r\n`,
    );
    expectNotNormal(answer, 'raw /api/accounts#');
  });

  it('targets in normal form are served as before', async () => {
    for (const path of [
      '/api/cms/news',
      '/api/cms/news?limit=1&order=title',
      '/api/cms/news?filter=title%3DA%20headline',
      `/api/cms/news/${newsId}`,
      '/api/cms/news/',
      '/api/cms-content/news',
      '/api/accounts',
    ]) {
      const answer = await get(path, as.admin_token);
      expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    }
  });
});
