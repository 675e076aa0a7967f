import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolConfig } from '../db/postgres/postgres-connection.js';
import { openSqliteFile } from '../db/sqlite/sqlite-dialect.js';
import { type ChildServer, spawnServer } from '../test-support/child-server.js';
import { type RawAnswer, rawRequest, sendBytes } from '../test-support/hostile-http.js';
import { createTestDatabase, postgresForTests, skipNote, type TestDatabase } from '../test-support/postgres.js';
import type { TestEngine } from '../test-support/test-server.js';

/**
 * A property-based fuzzer against a real server process: random methods, paths, query strings,
 * headers and bodies (well-formed writes among them, so rows really change), plus raw garbage on
 * the socket. Whatever arrives, the answer is never a 5xx, every failure comes in the JSON error
 * shape, the process stays up, and afterwards the rows the API counts are the rows in the tables.
 * `npm test` runs a part of it on each engine (api-fuzz.test.ts), `npm run test:stress` the whole
 * (api-fuzz.stress.test.ts).
 */

/** A value one request in six carries; the others leave it out. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('', ' ', "'; drop table news; --", '<script>alert(1)</script>', '\u0000', '2025-01-01 10:00:00'),
);
/** A URL component: usually encoded, sometimes a deliberately broken encoding. */
const component = fc.oneof(
  { weight: 6, arbitrary: text.map(encodeURIComponent) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('%', '%FF', '%E0%A4%A', '%00', '%2F', '..', '%2e%2e', '__proto__', 'constructor'),
  },
);
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('cms', 'cms-content', 'news', 'categories', 'fuzz-a', 'nope') },
  { weight: 1, arbitrary: component },
);
const rowId = fc.constantFrom('fuzz-a', 'fuzz-b', 'fuzz-c', 'x%00', '%2e%2e', 'a%2Fb');
/** A revision number as a path segment: real-looking, out of range, or not a number. */
const revisionId = fc.oneof(
  fc.integer({ min: 1, max: 50 }).map(String),
  fc.constantFrom('0', '-1', 'abc', '1.5', '01', '1e3', '99999999999999999999', '9007199254740993', '%00'),
);
/** Addresses of the newer endpoints: revisions, the trash, schedules, hooks, accounts, tokens, the generated API. */
const newPath = fc.oneof(
  fc
    .tuple(fc.constantFrom('news', 'categories', 'articles'), rowId, revisionId, fc.constantFrom('', '/restore'))
    .map(([type, id, rev, tail]) => `/api/cms/${type}/${id}/revisions/${rev}${tail}`),
  fc
    .tuple(fc.constantFrom('news', 'articles', 'nope'), rowId, fc.constantFrom('/revisions', '/schedule'))
    .map(([type, id, tail]) => `/api/cms/${type}/${id}${tail}`),
  fc
    .tuple(fc.constantFrom('news', 'categories', 'nope'), fc.constantFrom('', '/fuzz-a/restore', '/x/restore'))
    .map(([type, tail]) => `/api/cms/${type}/trash${tail}`),
  fc
    .tuple(fc.constantFrom('', '/nope', '/%2e%2e', '/x%00'), fc.constantFrom('', '/deliveries', '/test'))
    .map(([id, tail]) => `/api/hooks${id}${id === '' ? '' : tail}`),
  fc.constantFrom(
    '/api/accounts',
    '/api/accounts/ada',
    '/api/tokens',
    '/api/tokens/ci',
    '/api/auth/me',
    '/api/auth/sign-in',
    '/api/auth/sign-out',
    '/api/cms-content-changes',
    '/api/openapi.json',
    '/api/types.d.ts',
  ),
);
/** A filter in the list grammar (common/filter-syntax.ts): known and unknown fields, every operator, hostile values. */
const filterText = fc
  .tuple(
    fc.constantFrom('title', 'status', 'published_at', 'slug', 'id', 'created_at', 'category', 'tags', 'nope', ''),
    fc.constantFrom('', '.slug', '.title', '.'),
    fc.constantFrom('=', '!=', '<', '<=', '>', '>=', ':in=', ':empty', ':notempty', ':like=', '=='),
    fc.oneof(
      fc.constantFrom('draft', 'draft|published', 'a\\|b', '\\', '|', '', '2025-01-01 10:00:00', '0000-00-00 24:61:61'),
      fc.array(fc.constantFrom('draft', 'x', ''), { minLength: 99, maxLength: 102 }).map((values) => values.join('|')),
      text,
    ),
  )
  .map(([field, through, operator, value]) => `${field}${through}${operator}${value}`);
const path = fc.oneof(
  { weight: 3, arbitrary: newPath },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '/api/cms/news',
      '/api/cms/categories',
      '/api/cms-content',
      '/api/cms-content/fuzz-type',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom('/api/cms/news/', '/api/cms/categories/'), rowId).map((p) => p.join('')),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/api/', '/api/cms/news/', '/api/cms/', '/', '/media/', '//'),
        fc.array(segment, { maxLength: 3 }),
      )
      .map(([prefix, segments]) => prefix + segments.join('/')),
  },
);
const queryKey = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('filter', 'limit', 'offset', 'order', 'desc', '_', 'type', 'force') },
  { weight: 1, arbitrary: component },
);
const queryValue = fc.oneof(
  fc.constantFrom('1', '0', '-1', '1000000', 'title', 'true', 'title=a', 'search=a', 'status=draft', 'id=x'),
  filterText,
  component,
);
const query = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(queryKey, queryValue), { minLength: 1, maxLength: 5 })
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`),
  },
);

const fieldName = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom('title', 'status', 'published_at', 'slug', 'meta[title]', 'meta_keywords', 'id'),
  },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor[prototype]', 'meta[a][b]', 'title[]', 'nope') },
  { weight: 1, arbitrary: text },
);
const validRow = fc
  .record({
    title: fc.string({ minLength: 1, maxLength: 40 }),
    status: fc.constantFrom('draft', 'published', 'archived'),
  })
  .map(({ title, status }) => ({ title: title.replace(/\0/g, ''), status, published_at: '2025-01-01 10:00:00' }));
const form = fc
  .oneof(
    { weight: 3, arbitrary: validRow.map((fields) => new URLSearchParams(fields).toString()) },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.tuple(fieldName, text), { maxLength: 6 })
        .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(component, component), { maxLength: 4 })
        .map((p) => p.map((kv) => kv.join('=')).join('&')),
    },
  )
  .map((body) => ({ type: 'application/x-www-form-urlencoded', body: Buffer.from(body) }));
/** Bodies of schedules, hooks, accounts and tokens: some valid, most a little wrong. */
const publishingBody = fc.oneof(
  fc.record({
    status: fc.constantFrom('published', 'draft', 'publishd', '', 1),
    at: fc.constantFrom('2099-01-01 00:00:00', '2000-01-01 00:00:00', '2030-02-30 10:00:00', 'soon', 4102444800),
  }),
  fc.record({
    url: fc.constantFrom(
      'http://127.0.0.1:9/build',
      'javascript:alert(1)',
      'http://u:p@127.0.0.1:9/',
      'file:///etc/passwd',
      `https://example.com/${'a'.repeat(3000)}`,
    ),
    content_types: fc.constantFrom(undefined, null, ['news'], ['nope'], 'news'),
    actions: fc.constantFrom(undefined, null, ['create'], ['explode']),
  }),
  fc.record({
    name: fc.constantFrom('zed', '', 'x y', '\u{1F600}', 'n'.repeat(300)),
    role: fc.constantFrom('viewer', 'admn', 'ADMIN', '__proto__'),
    password: fc.constantFrom('', 'short', 1234),
    expires_days: fc.constantFrom(undefined, -1, 0, 1e9, 'NaN'),
  }),
);
const json = fc
  .oneof(
    { weight: 3, arbitrary: validRow.map((fields) => JSON.stringify(fields)) },
    { weight: 2, arbitrary: publishingBody.map((fields) => JSON.stringify(fields)) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 6 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fieldName, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }).map((o) => JSON.stringify(o)),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"title":"a","title":"b"}',
        '{"__proto__":{"x":1}}',
        '{',
        '[]',
        'null',
        '['.repeat(5000),
      ),
    },
  )
  .map((body) => ({ type: 'application/json', body: Buffer.from(body) }));
const other = fc
  .tuple(
    fc.constantFrom(
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/x-www-form-urlencoded; charset=utf-16',
      'application/xml',
      '',
    ),
    fc.uint8Array({ maxLength: 200 }),
  )
  .map(([type, bytes]) => ({ type, body: Buffer.from(bytes) }));
const body = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: form },
  { weight: 2, arbitrary: json },
  { weight: 1, arbitrary: other },
);

const httpRequest = fc.record({
  kind: fc.constant('http' as const),
  method: fc.constantFrom(
    'GET',
    'GET',
    'POST',
    'POST',
    'POST',
    'PUT',
    'PUT',
    'PATCH',
    'DELETE',
    'OPTIONS',
    'HEAD',
    'TRACE',
    'PROPFIND',
  ),
  path,
  query,
  body,
  origin: sometimes(fc.constantFrom('null', 'http://evil.example', 'own', 'own')),
  host: sometimes(fc.constantFrom('evil.example', 'localhost', '[::1]', 'a b', '')),
});
const garbage = fc
  .oneof(
    fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    fc
      .string({ unit: 'binary', maxLength: 100 })
      .map((line) => Buffer.from(`GET /${line} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)),
  )
  .map((bytes) => ({ kind: 'bytes' as const, bytes }));
const anyRequest = fc.oneof({ weight: 12, arbitrary: httpRequest }, { weight: 1, arbitrary: garbage });

/** Rows counted straight in the database the child serves, and that database's own integrity check. */
interface DirectCounts {
  count(table: string): Promise<number>;
  /** `ok`, or what is wrong; PostgreSQL checks its pages itself and has no whole-database check to ask. */
  integrity(): Promise<string>;
  close(): Promise<void>;
}

async function sqliteCounts(file: string): Promise<DirectCounts> {
  const raw = openSqliteFile(file, { readonly: true });
  return {
    count: async (table) => (raw.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n,
    integrity: async () => String(raw.pragma('integrity_check', { simple: true })),
    close: async () => {
      raw.close();
    },
  };
}

async function postgresCounts(database: TestDatabase): Promise<DirectCounts> {
  const client = new pg.Client(poolConfig(database.target));
  await client.connect();
  return {
    count: async (table) =>
      Number((await client.query(`select count(*) as n from "${table.replaceAll('"', '""')}"`)).rows[0].n),
    integrity: async () => 'ok',
    close: () => client.end(),
  };
}

/** How one file runs the fuzzer. */
export interface ApiFuzzOptions {
  /** The engine the server serves: a SQLite file, or a throwaway PostgreSQL database. */
  engine: TestEngine;
  /** Requests sent, unless QUIRE_FUZZ_RUNS says how many. */
  runs: number;
  /**
   * fast-check's seed, unless QUIRE_FUZZ_SEED gives one: a number sends the same requests every
   * run; none, a new set each run (the test's name says which, for QUIRE_FUZZ_SEED to replay it).
   */
  seed?: number;
}

/**
 * Registers the fuzzer's suite on one engine. Without a PostgreSQL server to run on, the PostgreSQL
 * suite is skipped saying why (on CI it fails: postgresForTests).
 */
export async function apiFuzzSuite({ engine, ...options }: ApiFuzzOptions): Promise<void> {
  const runs = Number(process.env.QUIRE_FUZZ_RUNS ?? options.runs);
  const seed = Number(process.env.QUIRE_FUZZ_SEED ?? options.seed ?? Math.floor(Math.random() * 2 ** 31));
  const postgres = engine === 'postgres' ? await postgresForTests() : null;

  describe.skipIf(postgres?.available === false)(
    `the API under random requests (${engine})${postgres ? skipNote(postgres) : ''}`,
    () => {
      let dir: string;
      let database: TestDatabase | null = null;
      let server: ChildServer;
      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), 'quire-fuzz-'));
        if (postgres) {
          database = await createTestDatabase(postgres.url);
          server = await spawnServer({ postgresUrl: database.url }, ['--no-backups']);
        } else {
          server = await spawnServer(join(dir, 'content.sqlite'));
        }
      }, 60_000);
      afterAll(async () => {
        await server?.kill('SIGTERM');
        await database?.drop();
        rmSync(dir, { recursive: true, force: true });
      });

      // The seed is in the name, so whatever fails says how to replay it (QUIRE_FUZZ_SEED).
      it(`never answers ${runs} random requests (seed ${seed}) with a 5xx, stays up, and keeps its counts true`, async () => {
        const statuses = new Map<number, number>();
        await fc.assert(
          fc.asyncProperty(anyRequest, async (request) => {
            let answer: RawAnswer;
            if (request.kind === 'bytes') {
              answer = await sendBytes(server.origin, request.bytes);
              // Garbage may be a complete, valid request, or nothing the server must answer at all.
              if (answer.status === 0) return;
            } else {
              const headers: Record<string, string> = {};
              if (request.body) headers['content-type'] = request.body.type;
              if (request.origin) headers.origin = request.origin === 'own' ? server.origin : request.origin;
              if (request.host !== undefined) headers.host = request.host;
              answer = await rawRequest(server.origin, {
                method: request.method,
                path: request.path + request.query,
                headers,
                body: request.body?.body,
              });
            }
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            expect(answer.status, answer.text).toBeLessThan(500);
            expect(answer.status).toBeGreaterThanOrEqual(200);
            expect(answer.headers['x-content-type-options']).toBe('nosniff');
            const method = request.kind === 'http' ? request.method : '';
            if (answer.status >= 400 && method !== 'HEAD') {
              expect(answer.body?.error?.status, answer.text).toBe(answer.status);
              expect(typeof answer.body.error.code).toBe('string');
              expect(answer.text).not.toMatch(/SQLITE|\.ts:\d|at \w+ \(/);
            }
          }),
          { numRuns: runs, seed },
        );

        expect(server.alive()).toBe(true);
        expect(server.stderr()).toBe('');
        expect([...statuses.keys()].some((status) => status === 201)).toBe(true);
        const direct = database ? await postgresCounts(database) : await sqliteCounts(join(dir, 'content.sqlite'));
        try {
          // Content types may have been created, changed or deleted by the fuzzer: count what exists.
          const listed = await fetch(`${server.api}/cms-content`);
          const { content_types } = (await listed.json()) as { content_types: { table: string }[] };
          for (const { table } of content_types) {
            const response = await fetch(`${server.api}/cms/${encodeURIComponent(table)}?limit=0`);
            const { total } = (await response.json()) as { total: number };
            expect(total, table).toBe(await direct.count(table));
          }
          expect(await direct.integrity()).toBe('ok');
        } finally {
          await direct.close();
        }
        console.log(
          `fuzz (${engine}): ${runs} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
        );
      }, 120_000);
    },
  );
}
