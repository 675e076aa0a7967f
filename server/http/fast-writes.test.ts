import { type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuireDb } from '../db/database.js';
import { FAST_PATH_TOKEN, type FastPathServers, fastPathServers } from '../test-support/fast-path-servers.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';

/**
 * The fast write path must answer exactly as Express does: same status, headers and body, guards,
 * body parsers and refusals included. Two servers over one database, one per path, get the same
 * requests one after the other; what each write makes its own (ids, times, a slug made unique)
 * is taken out. In `server-pg` the database is PostgreSQL, where the fast path runs too.
 */

const TOKEN = FAST_PATH_TOKEN;
const BODY_LIMIT = 4096;

let opened: OpenTestDatabase;
let database: QuireDb;
let servers: FastPathServers;
let existingId: string;

/** A write as sent: method, path, headers and body (a Buffer to send bytes that are not UTF-8). */
interface Write {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

const OWN_PER_WRITE = new Set(['id', 'slug', 'created_at', 'updated_at']);

/** A write's answer: status, headers and body, with what each write makes its own taken out. */
async function answer(base: string, { method, path, headers = {}, body }: Write) {
  // node:http rather than fetch: fetch will not send a foreign Host header.
  const [hostname, port] = base.split(':');
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = request({ hostname, port: Number(port), method, path, headers, agent: false }, resolve);
    sent.on('error', reject);
    sent.end(body);
  });
  let text = '';
  for await (const chunk of response) text += chunk;
  const kept = Object.entries(response.headers)
    .filter(([name]) => !['date', 'content-length', 'keep-alive', 'connection'].includes(name))
    .map(([name, value]) => (name === 'location' ? [name, String(value).replace(/[^/]+$/, '<id>')] : [name, value]))
    .sort();
  const parsed: unknown = text ? JSON.parse(text) : text;
  return { status: response.statusCode, headers: kept, body: withoutOwn(parsed) };
}

function withoutOwn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOwn);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, OWN_PER_WRITE.has(key) ? `<${key}>` : withoutOwn(inner)]),
  );
}

const form = (fields: Record<string, string>): Write['headers'] & object => ({
  'content-type': 'application/x-www-form-urlencoded',
  'content-length': String(Buffer.byteLength(new URLSearchParams(fields).toString())),
});

function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Write {
  return {
    method: 'POST',
    path,
    headers: { ...form(fields), ...headers },
    body: new URLSearchParams(fields).toString(),
  };
}

function json(method: string, path: string, text: string, headers: Record<string, string> = {}): Write {
  return { method, path, headers: { 'content-type': 'application/json', ...headers }, body: text };
}

const ROW = { title: 'Fast path', status: 'draft', published_at: '2025-02-03 04:05:06' };

beforeAll(async () => {
  opened = await openTestDatabase();
  database = opened.database;
  servers = await fastPathServers(database, { bodyLimit: BODY_LIMIT });
  const news = servers.open.services.registry.requireByTable('news');
  existingId = (await servers.open.services.rows.create(news, ROW)).id;
});

afterAll(async () => {
  servers?.close();
  await opened?.dispose();
});

describe('the fast write path', () => {
  it('creates and updates rows exactly as Express does', async () => {
    const writes: Write[] = [
      post('/api/cms/news', ROW),
      json('POST', '/api/cms/news', JSON.stringify({ ...ROW, meta: { title: 'Meta' } })),
      post('/api/cms/news', { ...ROW, 'meta[title]': 'Nested' }),
      json('POST', '/api/cms/news', JSON.stringify(ROW), { 'content-type': 'application/json; charset=UTF-8' }),
      { ...post(`/api/cms/news/${existingId}`, { title: 'Changed by PATCH' }), method: 'PATCH' },
      json('PUT', `/api/cms/news/${existingId}`, JSON.stringify({ ...ROW, title: 'Changed by PUT' })),
      json('PATCH', `/api/cms/news/${existingId}`, JSON.stringify({ status: 'published' })),
      // A chunked body, without Content-Length.
      {
        method: 'POST',
        path: '/api/cms/news',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        body: JSON.stringify(ROW),
      },
    ];
    for (const write of writes) {
      const expected = await answer(servers.viaExpress, write);
      const actual = await answer(servers.viaFastPath, write);
      expect(actual, `${write.method} ${write.path} ${write.body}`).toEqual(expected);
      expect(expected.status, `${write.method} ${write.path}`).toBeLessThan(300);
    }
  });

  it('refuses bad writes with the same status and error body, changing nothing', async () => {
    const writes: Write[] = [
      post('/api/cms/news', { status: 'draft' }),
      post('/api/cms/news', { ...ROW, status: 'nope' }),
      post(`/api/cms/news/${existingId}`, ROW),
      post('/api/cms/nothing', ROW),
      json('PATCH', '/api/cms/news/0190a000-0000-7000-8000-000000000000', '{"title":"x"}'),
      json('POST', '/api/cms/news', '{"title":'),
      json('POST', '/api/cms/news', '{"title":"a","title":"b"}'),
      json('POST', '/api/cms/news', '[1,2]'),
      json('POST', '/api/cms/news', JSON.stringify({ ...ROW, title: 'x'.repeat(BODY_LIMIT) })),
      json('POST', '/api/cms/news', JSON.stringify(ROW), { 'content-type': 'application/json; charset=latin1' }),
      json('POST', '/api/cms/news', JSON.stringify(ROW), { 'content-encoding': 'gzip' }),
      { method: 'POST', path: '/api/cms/news', headers: { 'content-type': 'text/plain' }, body: 'title=x' },
      {
        method: 'POST',
        path: '/api/cms/news',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      },
      post('/api/cms/news', { ...ROW, 'meta[a][b]': 'deep' }),
      post('/api/cms/news', { ...ROW, __proto__x: '1', 'meta[__proto__]': 'x' }),
      { method: 'POST', path: '/api/cms/news', headers: { 'content-length': '0' } },
      json('PATCH', '/api/cms/news/trash', '{}'),
      json('PUT', '/api/cms/news', '{}'),
      json('POST', '/api/cms/news/%E0%A4%A', '{}'),
    ];
    const count = async () =>
      ((await answer(servers.viaFastPath, { method: 'GET', path: '/api/cms/news?limit=1' })).body as { total: number })
        .total;
    const before = await count();
    for (const write of writes) {
      const expected = await answer(servers.viaExpress, write);
      const actual = await answer(servers.viaFastPath, write);
      expect(actual, `${write.method} ${write.path} ${String(write.body).slice(0, 60)}`).toEqual(expected);
      expect(expected.status, `${write.method} ${write.path}`).toBeGreaterThanOrEqual(400);
    }
    expect(await count()).toBe(before);
  });

  it('runs the guards: a foreign Host or Origin and a missing or wrong token are refused the same way', async () => {
    const cases: [string, string, Record<string, string>, number][] = [
      [servers.viaExpress, servers.viaFastPath, { host: 'evil.example' }, 421],
      [servers.viaExpress, servers.viaFastPath, { origin: 'http://evil.example' }, 403],
      [servers.tokenExpress, servers.tokenFastPath, {}, 401],
      [servers.tokenExpress, servers.tokenFastPath, { authorization: 'Bearer wrong-token-wrong-token' }, 401],
      [servers.tokenExpress, servers.tokenFastPath, { authorization: `Bearer ${TOKEN}` }, 201],
      // CORS lets that origin read; writing from another page stays refused.
      [
        servers.tokenExpress,
        servers.tokenFastPath,
        { authorization: `Bearer ${TOKEN}`, origin: 'http://reader.example' },
        403,
      ],
    ];
    for (const [express, fast, headers, status] of cases) {
      const write = post('/api/cms/news', ROW, headers);
      const expected = await answer(express, write);
      const actual = await answer(fast, write);
      expect(actual, JSON.stringify(headers)).toEqual(expected);
      expect(expected.status, JSON.stringify(headers)).toBe(status);
    }
  });

  it('answers row writes without Express, and hands everything else to it', async () => {
    const { base, expressCalls } = await servers.countingExpress();
    expect((await answer(base, post('/api/cms/news', ROW))).status).toBe(201);
    expect((await answer(base, json('PATCH', `/api/cms/news/${existingId}`, '{"status":"draft"}'))).status).toBe(200);
    expect((await answer(base, json('POST', '/api/cms/news', '{'))).status).toBe(400);
    expect(expressCalls()).toBe(0);
    // Refused by a guard before the body is read: Express answers, as it does other routes.
    expect((await answer(base, post('/api/cms/news', ROW, { origin: 'http://evil.example' }))).status).toBe(403);
    expect((await answer(base, json('DELETE', `/api/cms/news/${existingId}`, ''))).status).toBe(200);
    expect((await answer(base, json('POST', '/api/cms-content', '{}'))).status).toBe(400);
    expect(expressCalls()).toBe(3);
  });
});
