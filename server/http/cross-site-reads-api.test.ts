import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { type RawAnswer, rawRequest } from '../test-support/hostile-http.js';
import { pngImage } from '../test-support/sample-images.js';
import { countRows, seedNews } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Fetches another page makes (`<img>`, `<script>`, frames, `fetch`) are refused before any work,
 * on the hot read path and on Express alike: a foreign page cannot read the answers anyway, but
 * it could time searches (XS-Search) and keep the server busy. `Sec-Fetch-Site` says who asks:
 * `same-site` is another port of this host, a foreign page too.
 */

type Server = TestServer & { errors: unknown[] };

/** Starts a server with one news row and one uploaded image; spies on the row reads. */
async function seededServer(options: { corsOrigins?: string[] } = {}) {
  const server: Server = await startTestServer(options);
  const [row] = await seedNews(server, [{ title: 'Hello searchable world' }]);
  const form = new FormData();
  form.append('file', new Blob([pngImage()]), 'a.png');
  const upload = await fetch(`${server.api}/uploads`, { method: 'POST', body: form });
  const { path } = (await upload.json()) as { path: string };
  // The row reads are where a request first touches the database (the registry is in memory).
  const reads = [vi.spyOn(server.services.rows, 'list'), vi.spyOn(server.services.rows, 'get')];
  return { server, rowId: row.id, mediaPath: path, reads };
}

/** Calls made to the spies since the last look, cleared for the next request. */
function readsSince(reads: MockInstance[]): number {
  const calls = reads.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
  for (const spy of reads) spy.mockClear();
  return calls;
}

function expectForbidden(answer: RawAnswer): void {
  expect(answer.status, answer.text).toBe(403);
  expect(answer.body.error).toMatchObject({ status: 403, code: 'forbidden' });
  expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
}

/** Headers of a subresource load (`<img>`, `<script>`): no Origin, mode no-cors. */
const subresource = (site: string) => ({
  'sec-fetch-site': site,
  'sec-fetch-mode': 'no-cors',
  'sec-fetch-dest': 'image',
});

describe('reads another page makes are refused before any database work', () => {
  let seeded: Awaited<ReturnType<typeof seededServer>>;
  beforeAll(async () => {
    seeded = await seededServer();
  });
  afterAll(async () => {
    await seeded?.server.dispose();
  });

  const targets: [string, () => string, boolean][] = [
    ['a search on the hot list read', () => '/api/cms/news?filter=search%3Dsearchable', true],
    ['the hot single-row read', () => `/api/cms/news/${seeded.rowId}`, true],
    ['a content type with its rows (Express)', () => '/api/cms-content/news', true],
    ['the content-type list', () => '/api/cms-content', false],
    ['a media file', () => seeded.mediaPath, false],
  ];

  describe.each(targets)('%s', (_name, path, readsRows) => {
    it.each(['cross-site', 'same-site', 'some-future-value'])('Sec-Fetch-Site: %s is a 403', async (site) => {
      readsSince(seeded.reads);
      expectForbidden(await rawRequest(seeded.server.origin, { path: path(), headers: subresource(site) }));
      expect(readsSince(seeded.reads)).toBe(0);
    });

    it.each([
      ['same-origin (the editor)', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' }],
      ['none (a typed URL or bookmark)', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }],
      ['absent (curl, scripts, a site build in Node)', {}],
    ])('Sec-Fetch-Site %s is served', async (_site, headers) => {
      readsSince(seeded.reads);
      const answer = await rawRequest(seeded.server.origin, { path: path(), headers });
      expect(answer.status, answer.text).toBe(200);
      expect(readsSince(seeded.reads)).toBe(readsRows ? 1 : 0);
    });
  });

  it('finds the row on the hot path when asked by the editor, so the refusals above are not empty searches', async () => {
    const answer = await rawRequest(seeded.server.origin, {
      path: '/api/cms/news?filter=search%3Dsearchable',
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(answer.body.rows.map((row: { id: string }) => row.id)).toEqual([seeded.rowId]);
  });

  it('serves a top-level navigation from another site (the user followed a link)', async () => {
    const answer = await rawRequest(seeded.server.origin, {
      path: '/api/cms/news',
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
    });
    expect(answer.status, answer.text).toBe(200);
  });

  it.each(['iframe', 'frame', 'object', 'embed'])('refuses a navigation into a foreign %s', async (dest) => {
    readsSince(seeded.reads);
    const headers = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': dest };
    expectForbidden(await rawRequest(seeded.server.origin, { path: '/api/cms/news', headers }));
    expect(readsSince(seeded.reads)).toBe(0);
  });

  it('refuses a same-site write without Origin and writes nothing', async () => {
    const before = await countRows(seeded.server, 'news');
    const answer = await rawRequest(seeded.server.origin, {
      method: 'POST',
      path: '/api/cms/news',
      headers: { 'sec-fetch-site': 'same-site', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=Planted&status=draft&published_at=2025-01-01%2010:00:00',
    });
    expectForbidden(answer);
    expect(await countRows(seeded.server, 'news')).toBe(before);
  });
});

describe('with --cors-origin, the named origin may read; its subresources still may not', () => {
  const reader = 'http://localhost:3000';
  let seeded: Awaited<ReturnType<typeof seededServer>>;
  beforeAll(async () => {
    seeded = await seededServer({ corsOrigins: [reader] });
  });
  afterAll(async () => {
    await seeded?.server.dispose();
  });

  const read = (path: string, headers: Record<string, string>) =>
    rawRequest(seeded.server.origin, {
      path,
      headers: { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', ...headers },
    });

  it.each(['cross-site', 'same-site'])(
    'serves fetch() from the named origin (%s) on the hot path and on Express',
    async (site) => {
      for (const path of [
        '/api/cms/news?filter=search%3Dsearchable',
        `/api/cms/news/${seeded.rowId}`,
        '/api/cms-content/news',
      ]) {
        const answer = await read(path, { 'sec-fetch-site': site, origin: reader });
        expect(answer.status, `${path}: ${answer.text}`).toBe(200);
        expect(answer.headers['access-control-allow-origin']).toBe(reader);
      }
    },
  );

  it('serves a media file to <img crossorigin> on the named origin', async () => {
    const answer = await read(seeded.mediaPath, {
      'sec-fetch-site': 'same-site',
      'sec-fetch-dest': 'image',
      origin: reader,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(reader);
  });

  it.each([
    ['an <img> without Origin (it could be any page)', subresource('cross-site')],
    ['a fetch from another origin', { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' }],
    ['a fetch from another port of the named host', { 'sec-fetch-site': 'same-site', origin: 'http://localhost:3001' }],
  ])('refuses %s before any database work', async (_name, headers) => {
    for (const path of [
      '/api/cms/news?filter=search%3Dsearchable',
      `/api/cms/news/${seeded.rowId}`,
      '/api/cms-content/news',
    ]) {
      readsSince(seeded.reads);
      expectForbidden(await read(path, headers));
      expect(readsSince(seeded.reads), path).toBe(0);
    }
  });

  it('refuses a write from the named origin even with Sec-Fetch-Site', async () => {
    const before = await countRows(seeded.server, 'news');
    const answer = await rawRequest(seeded.server.origin, {
      method: 'POST',
      path: '/api/cms/news',
      headers: { 'sec-fetch-site': 'same-site', origin: reader, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=Planted&status=draft&published_at=2025-01-01%2010:00:00',
    });
    expectForbidden(answer);
    expect(await countRows(seeded.server, 'news')).toBe(before);
  });
});
