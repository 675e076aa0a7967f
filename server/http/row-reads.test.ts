import { get, type IncomingMessage, type RequestListener } from 'node:http';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type QuireApp } from '../app.js';
import { JSON_CONTENT_TYPE, pipelineServers, SECURITY_HEADERS } from '../test-support/pipeline-servers.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';
import { bodyReader, DEFAULT_BODY_LIMIT } from './body-parsing.js';
import { localhostGuards } from './localhost-guards.js';
import { requestListener } from './request-listener.js';
import { type RowRoutes, rowRoutes } from './row-routes.js';

/**
 * The row routes' reads (`GET /api/cms/:type[/:id]`) through the one request pipeline: the guards
 * first, then one answer with the security headers, its tag and its timings, or the JSON error
 * shape. In `server-pg` the database is PostgreSQL.
 */

const TOKEN = 'a-long-enough-test-token';
const SECURITY = SECURITY_HEADERS;
const JSON_TYPE = JSON_CONTENT_TYPE;

let opened: OpenTestDatabase;
const servers = pipelineServers();
let open: QuireApp;
/** The server with no options, and one requiring a token and letting `http://reader.example` read. */
let openBase: string;
let guardedBase: string;
let firstId: string;

const listen = (listener: RequestListener) => servers.listen(listener);

/** Status, headers and body of an answer, with what legitimately differs per request taken out. */
async function answer(base: string, path: string, headers: Record<string, string> = {}) {
  // node:http rather than fetch: fetch will not send a foreign Host header.
  const [hostname, port] = base.split(':');
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get({ hostname, port: Number(port), path, headers, agent: false }, resolve).on('error', reject);
  });
  let text = '';
  for await (const chunk of response) text += chunk;
  const kept = Object.entries(response.headers)
    .filter(([name]) => !['date', 'server-timing', 'content-length', 'keep-alive', 'connection'].includes(name))
    .sort();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
    if (body && typeof body === 'object' && 'time' in body) (body as { time: unknown }).time = 'timing';
  } catch {}
  return { status: response.statusCode, headers: kept, body, timing: response.headers['server-timing'] !== undefined };
}

const errorCode = (body: unknown) => (body as { error?: { code?: string } }).error?.code;
const headerOf = (headers: readonly (readonly unknown[])[], name: string) =>
  headers.find(([key]) => key === name)?.[1] as string | undefined;

beforeAll(async () => {
  opened = await openTestDatabase();
  const base = { database: opened.database, editorName: 'tester', log: () => {} };
  open = await createApp(base);
  const guarded = await createApp({ ...base, security: { token: TOKEN, corsOrigins: ['http://reader.example'] } });
  openBase = await listen(open.listener);
  guardedBase = await listen(guarded.listener);
  const news = open.services.registry.requireByTable('news');
  for (const [i, title] of ['Über uns', 'Café', 'Alpha bravo', 'Charlie'].entries()) {
    const row = await open.services.rows.create(news, {
      title,
      status: i % 2 ? 'draft' : 'published',
      published_at: `2025-01-0${i + 1} 10:00:00`,
    });
    firstId ??= row.id;
  }
});

afterAll(async () => {
  servers.close();
  await opened?.dispose();
});

describe('the row routes read', () => {
  it('answers a read with the security headers, its tag, no-cache and its timings', async () => {
    const paths = [
      '/api/cms/news',
      '/api/cms/news?filter=status%3Dpublished&order=published_at&desc=true&limit=2',
      '/api/cms/news?filter=search%3D%C3%9CBER',
      '/api/cms/news?filter=search%3Dzz&limit=1',
      '/api/cms/news?filter=status%3Dpublished&filter=search%3Dcaf',
      `/api/cms/news/${firstId}`,
    ];
    for (const path of paths) {
      const read = await answer(openBase, path);
      expect(read.status, path).toBe(200);
      expect(read.timing, path).toBe(true);
      expect(read.headers.filter(([name]) => name !== 'etag')).toEqual(
        [['cache-control', 'no-cache'], JSON_TYPE, ...SECURITY].sort(),
      );
      expect(headerOf(read.headers, 'etag'), path).toMatch(/^"[0-9a-f]{32}"$/);
      expect(read.body, path).toMatchObject({ time: 'timing', pk: 'id' });
    }
    const list = await answer(openBase, '/api/cms/news');
    expect((list.body as { total: number }).total).toBe(4);
    const row = await answer(openBase, `/api/cms/news/${firstId}`);
    expect((row.body as { rows: { title: string }[] }).rows[0].title).toBe('Über uns');
  });

  it('matches its paths as the router matches routes: any case, and a trailing slash', async () => {
    const list = await answer(openBase, '/api/cms/news');
    for (const path of ['/api/cms/news/', '/API/cms/news', '/Api/CMS/news?']) {
      expect(await answer(openBase, path), path).toEqual(list);
    }
    expect(await answer(openBase, `/api/cms/news/${firstId}/`)).toEqual(
      await answer(openBase, `/api/cms/news/${firstId}`),
    );
  });

  it('refuses bad reads in the JSON error shape, with the security headers and no tag', async () => {
    const refusals: [string, number, string][] = [
      ['/api/cms/news?filter=nope%3D1', 400, 'bad_request'],
      ['/api/cms/news?limit=-1', 400, 'bad_request'],
      ['/api/cms/news?bogus=1', 400, 'bad_request'],
      ['/api/cms/nothing', 404, 'not_found'],
      ['/api/cms/news/no-such-id', 404, 'not_found'],
      ['/api/cms/%E0%A4%A', 400, 'bad_request'],
      ['/api/cms/news/%00', 400, 'bad_request'],
      ['/api/cms/news?__proto__=1', 400, 'bad_request'],
    ];
    for (const [path, status, code] of refusals) {
      const refused = await answer(openBase, path);
      expect(refused.status, path).toBe(status);
      expect(errorCode(refused.body), path).toBe(code);
      expect(refused.headers, path).toEqual([JSON_TYPE, ...SECURITY].sort());
    }
  });

  it('runs the guards first: a foreign Host, a foreign Origin and a missing token are refused', async () => {
    const cases: [string, Record<string, string>, number, string | undefined, string[][]][] = [
      [openBase, { host: 'evil.example' }, 421, 'misdirected_request', []],
      [openBase, { origin: 'http://evil.example' }, 403, 'forbidden', []],
      [
        guardedBase,
        {},
        401,
        'unauthorized',
        [
          ['vary', 'Origin'],
          ['www-authenticate', 'Bearer realm="Quire"'],
        ],
      ],
      [
        guardedBase,
        { authorization: 'Bearer wrong-token-wrong-token' },
        401,
        'unauthorized',
        [
          ['vary', 'Origin'],
          ['www-authenticate', 'Bearer realm="Quire"'],
        ],
      ],
    ];
    for (const [base, headers, status, code, extra] of cases) {
      for (const path of ['/api/cms/news?limit=1', `/api/cms/news/${firstId}`]) {
        const refused = await answer(base, path, headers);
        expect(refused.status, `${path} ${JSON.stringify(headers)}`).toBe(status);
        expect(errorCode(refused.body)).toBe(code);
        expect(refused.headers).toEqual([JSON_TYPE, ...SECURITY, ...extra].sort());
      }
    }
    const allowed = await answer(guardedBase, '/api/cms/news?limit=1', { authorization: `Bearer ${TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(headerOf(allowed.headers, 'vary')).toBe('Origin');
    const reader = await answer(guardedBase, '/api/cms/news?limit=1', {
      authorization: `Bearer ${TOKEN}`,
      origin: 'http://reader.example',
    });
    expect(reader.status).toBe(200);
    expect(reader.headers.filter(([name]) => name !== 'etag')).toEqual(
      [
        ['access-control-allow-origin', 'http://reader.example'],
        ['access-control-expose-headers', 'Server-Timing'],
        ['cache-control', 'no-cache'],
        JSON_TYPE,
        ['vary', 'Origin'],
        ...SECURITY,
      ].sort(),
    );
    // The guards' headers do not change the answer or its tag.
    expect(reader.body).toEqual(allowed.body);
    expect(headerOf(reader.headers, 'etag')).toBe(headerOf(allowed.headers, 'etag'));
  });

  it('answers a request holding the current tag with a 304, with the guards headers', async () => {
    const guarded = { authorization: `Bearer ${TOKEN}`, origin: 'http://reader.example' };
    const cases: [string, Record<string, string>, string[][]][] = [
      [openBase, {}, []],
      [
        guardedBase,
        guarded,
        [
          ['access-control-allow-origin', 'http://reader.example'],
          ['access-control-expose-headers', 'Server-Timing'],
          ['vary', 'Origin'],
        ],
      ],
    ];
    for (const [base, headers, extra] of cases) {
      for (const path of ['/api/cms/news?limit=2', `/api/cms/news/${firstId}`]) {
        const tag = headerOf((await answer(base, path, headers)).headers, 'etag') as string;
        const revalidated = await answer(base, path, { ...headers, 'if-none-match': tag });
        expect(revalidated.status, path).toBe(304);
        expect(revalidated.body).toBe('');
        expect(revalidated.headers).toEqual(
          [['cache-control', 'no-cache'], ['etag', tag], ...SECURITY, ...extra].sort(),
        );
      }
    }
  });

  it('answers a HEAD with the head of the GET and no body', async () => {
    for (const path of ['/api/cms/news', `/api/cms/news/${firstId}`]) {
      const full = await answer(openBase, path);
      const [hostname, port] = openBase.split(':');
      const head = await new Promise<IncomingMessage>((resolve, reject) => {
        const sent = get({ hostname, port: Number(port), path, method: 'HEAD', agent: false }, resolve);
        sent.on('error', reject);
      });
      let text = '';
      for await (const chunk of head) text += chunk;
      expect(head.statusCode).toBe(200);
      expect(text).toBe('');
      expect(head.headers.etag).toBe(headerOf(full.headers, 'etag'));
      expect(head.headers['server-timing']).toBeDefined();
    }
  });
});

describe('the request pipeline', () => {
  it('decides the route up front: a row route never reaches the router, whatever its outcome', async () => {
    const built = await createApp({ database: opened.database, editorName: 'tester', log: () => {} });
    let routerCalls = 0;
    let rowCalls = 0;
    const app = ((...args: Parameters<Express>) => {
      routerCalls++;
      return built.app(...args);
    }) as Express;
    const rows = rowRoutes(built.services, { readBody: bodyReader({ bodyLimit: DEFAULT_BODY_LIMIT }) });
    const counted: RowRoutes = (...args) => {
      rowCalls++;
      return rows(...args);
    };
    const base = await listen(requestListener({ app, guards: localhostGuards(), rows: counted, log: () => {} }));
    for (const path of ['/api/cms/news', '/api/cms/news?filter=search%3Dcaf', `/api/cms/news/${firstId}`]) {
      expect((await answer(base, path)).status, path).toBe(200);
    }
    // Failures of the row routes are answered there: the router does not get the request again.
    expect((await answer(base, '/api/cms/nothing')).status).toBe(404);
    expect((await answer(base, '/api/cms/news?bogus=1')).status).toBe(400);
    // A refusal by a guard is answered before any route.
    expect((await answer(base, '/api/cms/news', { origin: 'http://evil.example' })).status).toBe(403);
    expect(routerCalls).toBe(0);
    expect(rowCalls).toBe(5);
    expect((await answer(base, '/api/cms-content')).status).toBe(200);
    expect((await answer(base, '/api/cms/news/trash')).status).toBe(200);
    expect(routerCalls).toBe(2);
    expect(rowCalls).toBe(5);
  });
});
