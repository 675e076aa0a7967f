import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuireDb } from '../db/database.js';
import { type FastPathServers, fastPathServers } from '../test-support/fast-path-servers.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';

/**
 * The fast read path must answer exactly as Express does: same status, headers and body (but the
 * timing figures), guards included. Two servers over one database, one per path, get the same
 * requests; in `server-pg` the database is PostgreSQL, where the fast path runs too.
 */

let opened: OpenTestDatabase;
let database: QuireDb;
let servers: FastPathServers;
let firstId: string;

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

beforeAll(async () => {
  opened = await openTestDatabase();
  database = opened.database;
  servers = await fastPathServers(database);
  const news = servers.open.services.registry.requireByTable('news');
  for (const [i, title] of ['Über uns', 'Café', 'Alpha bravo', 'Charlie'].entries()) {
    const row = await servers.open.services.rows.create(news, {
      title,
      status: i % 2 ? 'draft' : 'published',
      published_at: `2025-01-0${i + 1} 10:00:00`,
    });
    firstId ??= row.id;
  }
});

afterAll(async () => {
  servers?.close();
  await opened?.dispose();
});

const PATHS = [
  '/api/cms/news',
  '/api/cms/news?filter=status%3Dpublished&order=published_at&desc=true&limit=2',
  '/api/cms/news?filter=search%3D%C3%9CBER',
  '/api/cms/news?filter=search%3Dzz&limit=1',
  '/api/cms/news?filter=nope%3D1',
  '/api/cms/news?limit=-1',
  '/api/cms/news?bogus=1',
  '/api/cms/news?filter=status%3Dpublished&filter=search%3Dcaf',
  '/api/cms/nothing',
  '/api/cms/news/no-such-id',
  '/api/cms/%E0%A4%A',
  '/api/cms/news/%00',
  '/api/cms/news/',
  '/API/cms/news',
  '/api/cms/news?__proto__=1',
];

describe('the fast read path', () => {
  it('answers every read exactly as Express does', async () => {
    const paths = [...PATHS, `/api/cms/news/${firstId}`];
    for (const path of paths) {
      const expected = await answer(servers.viaExpress, path);
      const actual = await answer(servers.viaFastPath, path);
      expect(actual, path).toEqual(expected);
    }
  });

  it('runs the guards: a foreign Host, a foreign Origin and a missing token are refused the same way', async () => {
    const cases: [string, string, Record<string, string>][] = [
      [servers.viaExpress, servers.viaFastPath, { host: 'evil.example' }],
      [servers.viaExpress, servers.viaFastPath, { origin: 'http://evil.example' }],
      [servers.tokenExpress, servers.tokenFastPath, {}],
      [servers.tokenExpress, servers.tokenFastPath, { authorization: 'Bearer wrong-token-wrong-token' }],
      [servers.tokenExpress, servers.tokenFastPath, { authorization: 'Bearer a-long-enough-test-token' }],
      [
        servers.tokenExpress,
        servers.tokenFastPath,
        { authorization: 'Bearer a-long-enough-test-token', origin: 'http://reader.example' },
      ],
    ];
    for (const [express, fast, headers] of cases) {
      for (const path of ['/api/cms/news?limit=1', `/api/cms/news/${firstId}`]) {
        const expected = await answer(express, path, headers);
        const actual = await answer(fast, path, headers);
        expect(actual, `${path} ${JSON.stringify(headers)}`).toEqual(expected);
      }
    }
    const refused = await answer(servers.viaFastPath, '/api/cms/news', { host: 'evil.example' });
    expect(refused.status).toBe(421);
    const unauthorized = await answer(servers.tokenFastPath, '/api/cms/news');
    expect(unauthorized.status).toBe(401);
  });

  it('answers the hot reads without Express, and hands everything else to it', async () => {
    const { base, expressCalls } = await servers.countingExpress();
    for (const path of ['/api/cms/news', '/api/cms/news?filter=search%3Dcaf', `/api/cms/news/${firstId}`]) {
      expect((await answer(base, path)).status, path).toBe(200);
    }
    expect(expressCalls()).toBe(0);
    expect((await answer(base, '/api/cms/nothing')).status).toBe(404);
    expect((await answer(base, '/api/cms-content')).status).toBe(200);
    expect(expressCalls()).toBe(2);
  });

  it('answers a request holding the current tag with the same 304 as Express, with the guards headers', async () => {
    const guarded = { authorization: 'Bearer a-long-enough-test-token', origin: 'http://reader.example' };
    const cases: [string, string, Record<string, string>][] = [
      [servers.viaExpress, servers.viaFastPath, {}],
      [servers.tokenExpress, servers.tokenFastPath, guarded],
    ];
    for (const [express, fast, headers] of cases) {
      for (const path of ['/api/cms/news?limit=2', `/api/cms/news/${firstId}`]) {
        const tag = (await answer(fast, path, headers)).headers.find(([name]) => name === 'etag')?.[1] as string;
        const conditional = { ...headers, 'if-none-match': tag };
        const expected = await answer(express, path, conditional);
        const actual = await answer(fast, path, conditional);
        expect(expected.status, path).toBe(304);
        expect(actual, `${path} ${JSON.stringify(headers)}`).toEqual(expected);
      }
    }
  });

  it('sends the timing object as a Server-Timing header too', async () => {
    const list = await answer(servers.viaFastPath, '/api/cms/news');
    expect(list.status).toBe(200);
    expect(list.timing).toBe(true);
  });
});
