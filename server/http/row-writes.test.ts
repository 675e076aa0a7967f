import { type IncomingMessage, type RequestListener, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type QuireApp } from '../app.js';
import { JSON_CONTENT_TYPE, pipelineServers, SECURITY_HEADERS } from '../test-support/pipeline-servers.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';

/**
 * The row routes' writes (`POST /api/cms/:type[/:id]`, `PUT`, `PATCH`, `DELETE`, and the methods
 * they refuse) through the one request pipeline: guards, then the body reader, then the write, and
 * every refusal in the JSON error shape with the security headers, changing nothing. In
 * `server-pg` the database is PostgreSQL.
 */

const TOKEN = 'a-long-enough-test-token';
const BODY_LIMIT = 4096;
const SECURITY = SECURITY_HEADERS;
const JSON_TYPE = JSON_CONTENT_TYPE;

let opened: OpenTestDatabase;
const servers = pipelineServers();
let open: QuireApp;
/** The server with no options, and one requiring a token and letting `http://reader.example` read. */
let openBase: string;
let guardedBase: string;
let existingId: string;

const listen = (listener: RequestListener) => servers.listen(listener);

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

const errorCode = (body: unknown) => (body as { error?: { code?: string } }).error?.code;

const ROW = { title: 'A row', status: 'draft', published_at: '2025-02-03 04:05:06' };

beforeAll(async () => {
  opened = await openTestDatabase();
  const base = { database: opened.database, editorName: 'tester', log: () => {}, bodyLimit: BODY_LIMIT };
  open = await createApp(base);
  const guarded = await createApp({ ...base, security: { token: TOKEN, corsOrigins: ['http://reader.example'] } });
  openBase = await listen(open.listener);
  guardedBase = await listen(guarded.listener);
  const news = open.services.registry.requireByTable('news');
  existingId = (await open.services.rows.create(news, ROW)).id;
});

afterAll(async () => {
  servers.close();
  await opened?.dispose();
});

describe('the row routes write', () => {
  it('creates, updates and deletes rows, with the security headers', async () => {
    const writes: [Write, number][] = [
      [post('/api/cms/news', ROW), 201],
      [json('POST', '/api/cms/news', JSON.stringify({ ...ROW, meta: { title: 'Meta' } })), 201],
      [post('/api/cms/news', { ...ROW, 'meta[title]': 'Nested' }), 201],
      [json('POST', '/api/cms/news', JSON.stringify(ROW), { 'content-type': 'application/json; charset=UTF-8' }), 201],
      [{ ...post(`/api/cms/news/${existingId}`, { title: 'Changed by PATCH' }), method: 'PATCH' }, 200],
      [json('PUT', `/api/cms/news/${existingId}`, JSON.stringify({ ...ROW, title: 'Changed by PUT' })), 200],
      [json('PATCH', `/api/cms/news/${existingId}`, JSON.stringify({ status: 'published' })), 200],
      // A chunked body, without Content-Length.
      [
        {
          method: 'POST',
          path: '/api/cms/news',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          body: JSON.stringify(ROW),
        },
        201,
      ],
    ];
    for (const [write, status] of writes) {
      const written = await answer(openBase, write);
      expect(written.status, `${write.method} ${write.path} ${write.body}`).toBe(status);
      const location = status === 201 ? [['location', '/api/cms/news/<id>']] : [];
      expect(written.headers).toEqual([JSON_TYPE, ...SECURITY, ...location].sort());
      expect(written.body).toMatchObject(status === 201 ? { id: '<id>', rows: [{ id: '<id>' }] } : { id: '<id>' });
    }
    const meta = await answer(openBase, post('/api/cms/news', { ...ROW, 'meta[title]': 'Nested' }));
    expect(meta.body).toMatchObject({ rows: [{ meta: { title: 'Nested' } }] });
    const changed = await answer(openBase, { method: 'GET', path: `/api/cms/news/${existingId}` });
    expect(changed.body).toMatchObject({ rows: [{ title: 'Changed by PUT', status: 'published' }] });

    const doomed = (await open.services.rows.create(open.services.registry.requireByTable('news'), ROW)).id;
    const deleted = await answer(openBase, { method: 'DELETE', path: `/api/cms/news/${doomed}` });
    expect(deleted.status).toBe(200);
    expect(deleted.headers).toEqual([JSON_TYPE, ...SECURITY].sort());
    expect(deleted.body).toMatchObject({ id: '<id>', rowCount: 1 });
    expect((await answer(openBase, { method: 'GET', path: `/api/cms/news/${doomed}` })).status).toBe(404);
  });

  it('refuses bad writes with their status and error code, changing nothing', async () => {
    const writes: [Write, number, string, string[][]?][] = [
      [post('/api/cms/news', { status: 'draft' }), 400, 'validation_failed'],
      [post('/api/cms/news', { ...ROW, status: 'nope' }), 400, 'validation_failed'],
      [post(`/api/cms/news/${existingId}`, ROW), 409, 'conflict'],
      [post('/api/cms/nothing', ROW), 404, 'not_found'],
      [json('PATCH', '/api/cms/news/0190a000-0000-7000-8000-000000000000', '{"title":"x"}'), 404, 'not_found'],
      [json('POST', '/api/cms/news', '{"title":'), 400, 'bad_request'],
      [json('POST', '/api/cms/news', '{"title":"a","title":"b"}'), 400, 'validation_failed'],
      [json('POST', '/api/cms/news', '[1,2]'), 400, 'bad_request'],
      [
        json('POST', '/api/cms/news', JSON.stringify({ ...ROW, title: 'x'.repeat(BODY_LIMIT) })),
        413,
        'payload_too_large',
      ],
      [
        json('POST', '/api/cms/news', JSON.stringify(ROW), { 'content-type': 'application/json; charset=latin1' }),
        415,
        'unsupported_media_type',
      ],
      [
        json('POST', '/api/cms/news', JSON.stringify(ROW), { 'content-encoding': 'gzip' }),
        415,
        'unsupported_media_type',
      ],
      [
        { method: 'POST', path: '/api/cms/news', headers: { 'content-type': 'text/plain' }, body: 'title=x' },
        415,
        'unsupported_media_type',
      ],
      [
        {
          method: 'POST',
          path: '/api/cms/news',
          headers: { 'content-type': 'application/json' },
          body: Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
        },
        400,
        'bad_request',
      ],
      [post('/api/cms/news', { ...ROW, 'meta[a][b]': 'deep' }), 400, 'bad_request'],
      [post('/api/cms/news', { ...ROW, __proto__x: '1', 'meta[__proto__]': 'x' }), 400, 'bad_request'],
      [{ method: 'POST', path: '/api/cms/news', headers: { 'content-length': '0' } }, 400, 'validation_failed'],
      [json('PATCH', '/api/cms/news/trash', '{}'), 405, 'method_not_allowed', [['allow', 'GET, HEAD, OPTIONS']]],
      [json('PUT', '/api/cms/news', '{}'), 405, 'method_not_allowed', [['allow', 'GET, POST, HEAD, OPTIONS']]],
      // The body is read before the method is refused, as on every route.
      [json('PUT', '/api/cms/news', '{'), 400, 'bad_request'],
      [
        { method: 'DELETE', path: '/api/cms/news', headers: { 'content-length': '0' } },
        405,
        'method_not_allowed',
        [['allow', 'GET, POST, HEAD, OPTIONS']],
      ],
      [json('POST', '/api/cms/news/%E0%A4%A', '{}'), 400, 'bad_request'],
    ];
    const count = async () =>
      ((await answer(openBase, { method: 'GET', path: '/api/cms/news?limit=1' })).body as { total: number }).total;
    const before = await count();
    for (const [write, status, code, extra = []] of writes) {
      const refused = await answer(openBase, write);
      const what = `${write.method} ${write.path} ${String(write.body).slice(0, 60)}`;
      expect(refused.status, what).toBe(status);
      expect(errorCode(refused.body), what).toBe(code);
      expect(refused.headers, what).toEqual([JSON_TYPE, ...SECURITY, ...extra].sort());
    }
    expect((refusedDetail(await answer(openBase, writes[8][0])) as { limit: number }).limit).toBe(BODY_LIMIT);
    expect(await count()).toBe(before);
  });

  it('answers OPTIONS with the methods each row route allows', async () => {
    const list = await answer(openBase, { method: 'OPTIONS', path: '/api/cms/news' });
    expect(list.status).toBe(204);
    expect(list.headers).toEqual([['allow', 'GET, POST, HEAD, OPTIONS'], ...SECURITY].sort());
    const row = await answer(openBase, { method: 'OPTIONS', path: `/api/cms/news/${existingId}` });
    expect(row.status).toBe(204);
    expect(row.headers).toEqual([['allow', 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'], ...SECURITY].sort());
    // A CORS preflight from an allowed reader is answered by the CORS guard.
    const preflight = await answer(guardedBase, {
      method: 'OPTIONS',
      path: '/api/cms/news',
      headers: { origin: 'http://reader.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toEqual(
      [
        ['access-control-allow-methods', 'GET, HEAD'],
        ['access-control-allow-origin', 'http://reader.example'],
        ['access-control-max-age', '600'],
        ['vary', 'Origin'],
        ...SECURITY,
      ].sort(),
    );
  });

  it('runs the guards first: a foreign Host or Origin and a missing or wrong token are refused', async () => {
    const challenge = [
      ['vary', 'Origin'],
      ['www-authenticate', 'Bearer realm="Quire"'],
    ];
    const cases: [string, Record<string, string>, number, string[][]][] = [
      [openBase, { host: 'evil.example' }, 421, [JSON_TYPE]],
      [openBase, { origin: 'http://evil.example' }, 403, [JSON_TYPE]],
      [guardedBase, {}, 401, [JSON_TYPE, ...challenge]],
      [guardedBase, { authorization: 'Bearer wrong-token-wrong-token' }, 401, [JSON_TYPE, ...challenge]],
      [
        guardedBase,
        { authorization: `Bearer ${TOKEN}` },
        201,
        [JSON_TYPE, ['location', '/api/cms/news/<id>'], ['vary', 'Origin']],
      ],
      // CORS lets that origin read; writing from another page stays refused.
      [
        guardedBase,
        { authorization: `Bearer ${TOKEN}`, origin: 'http://reader.example' },
        403,
        [JSON_TYPE, ['vary', 'Origin']],
      ],
    ];
    for (const [base, headers, status, extra] of cases) {
      const written = await answer(base, post('/api/cms/news', ROW, headers));
      expect(written.status, JSON.stringify(headers)).toBe(status);
      expect(written.headers, JSON.stringify(headers)).toEqual([...SECURITY, ...extra].sort());
    }
  });
});

function refusedDetail(refused: { body: unknown }): unknown {
  return (refused.body as { error: { detail?: unknown } }).error.detail;
}
