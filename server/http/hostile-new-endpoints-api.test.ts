import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { databaseSnapshot, rawRequest, sendBytes } from '../test-support/hostile-http.js';
import { newsBody } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Hostile input to the newer endpoints and grammar (list filters, revisions and the
 * trash, schedules, build hooks, accounts and tokens, conditional reads) over real HTTP: every
 * refusal is a 4xx in the JSON error shape with its code, carries no stack trace or engine text,
 * and changes nothing (the whole database compared before and after).
 */

let server: TestServer;
/** Rows the scenarios point at: two news rows, one category, one article in that category. */
let news: string;
let otherNews: string;
let category: string;
let article: string;
/** A revision of each, by row. */
let newsRevision: number;
let otherNewsRevision: number;
let categoryRevision: number;

async function ok(method: string, url: string, json?: unknown) {
  const { response, body, text } = await request(server, method, url, json === undefined ? {} : { json });
  expect(response.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return body;
}

async function newestRevision(table: string, id: string): Promise<number> {
  return (await ok('GET', `/cms/${table}/${id}/revisions`)).revisions[0].id;
}

beforeAll(async () => {
  server = await startTestServer();
  news = (await ok('POST', '/cms/news', newsBody({ title: 'Hostile one' }))).id;
  otherNews = (await ok('POST', '/cms/news', newsBody({ title: 'Hostile two' }))).id;
  category = (await ok('POST', '/cms/categories', { title: 'Culture' })).id;
  article = (
    await ok('POST', '/cms/articles', {
      title: 'An article',
      status: 'draft',
      published_at: '2025-01-01 10:00:00',
      category,
    })
  ).id;
  newsRevision = await newestRevision('news', news);
  otherNewsRevision = await newestRevision('news', otherNews);
  categoryRevision = await newestRevision('categories', category);
});
afterAll(async () => {
  await server?.dispose();
});

interface Refusal {
  method?: string;
  url: string | (() => string);
  json?: unknown | (() => unknown);
  body?: string;
  headers?: Record<string, string>;
  status: number;
  code: string;
  /** The audit log's action for a refusal that is a security event (it is recorded, nothing else changes). */
  audited?: string;
}

/** The audit log's newest action, or null. */
async function newestAuditAction(): Promise<string | null> {
  const { rows } = await sql<{ action: string }>`select action from quire_audit order by id desc limit 1`.execute(
    server.database.db,
  );
  return rows[0]?.action ?? null;
}

/** Sends the request and checks the refusal: its status, code and shape, and that nothing changed. */
async function expectRefused(refusal: Refusal): Promise<any> {
  // Earlier writes' search-index rows move in the background: settle them first.
  await server.services.rows.searchFlushes.flush();
  const snapshotOptions = { withoutAuditLog: refusal.audited !== undefined };
  const before = await databaseSnapshot(server, snapshotOptions);
  const url = typeof refusal.url === 'function' ? refusal.url() : refusal.url;
  const json = typeof refusal.json === 'function' ? (refusal.json as () => unknown)() : refusal.json;
  const { response, body, text } = await request(server, refusal.method ?? 'GET', url, {
    ...(json === undefined ? {} : { json }),
    ...(refusal.body === undefined ? {} : { body: refusal.body }),
    headers: refusal.headers,
  });
  expect(response.status, `${refusal.method ?? 'GET'} ${url}: ${text}`).toBe(refusal.status);
  expect(body?.error?.status, text).toBe(refusal.status);
  expect(body.error.code, text).toBe(refusal.code);
  expect(typeof body.error.message).toBe('string');
  expect(text).not.toMatch(/SQLITE|sqlite3|syntax error|\.ts:\d|at \w+ \(|node_modules|relation "|column "/);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(await databaseSnapshot(server, snapshotOptions)).toBe(before);
  if (refusal.audited) expect(await newestAuditAction()).toBe(refusal.audited);
  return body;
}

function table(cases: [string, Refusal][]): void {
  for (const [name, refusal] of cases) it(name, () => expectRefused(refusal));
}

const filter = (table: string, ...filters: string[]) =>
  `/cms/${table}?${filters.map((one) => `filter=${encodeURIComponent(one)}`).join('&')}`;
const choices = (count: number) => Array.from({ length: count }, (_, i) => `v${i}`).join('|');

describe('hostile list filters: 400 bad_request', () => {
  table(
    [
      'status:in=',
      'status:in=|',
      'status:in=draft|',
      'status:in=|draft',
      'status:in=draft||published',
      'status:in=draft\\',
      'status:in=draft\\x',
      `status:in=${choices(101)}`,
      `id:in=${choices(101)}`,
      'status:empty=x',
      'status:notempty1',
      'status:like=a',
      'status~a',
      'status<>a',
      'status==draft',
      '=draft',
      '!=draft',
      '.slug=a',
      'status',
      'nope=1',
      'nope:in=a|b',
      'nope<1',
      '__proto__=1',
      'constructor.slug=a',
      'title.slug=a',
      'status.slug=a',
      'category.slug=a',
      'slug.slug=a',
      'published_at<yesterday',
      'published_at>2025-13-01 00:00:00',
      'published_at>2025-02-30 10:00:00',
      'published_at>=2025-01-01 24:00:00',
      'published_at<=-0001-01-01 00:00:00',
      'published_at>99999-01-01 00:00:00',
      'published_at:in=2025-01-01 10:00:00|never',
      'published_at>\u0000',
      'status:in=draft|\u0000',
      'status=no-such-option',
      'status:in=draft|no-such-option',
      'search',
      'title!=\u0000x',
      'created_at>=',
      'tags:notempty=x',
      '\u{1F600}=1',
      `${'x'.repeat(10_000)}=1`,
    ].map((text): [string, Refusal] => [
      `news ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)}`,
      { url: filter('news', text), status: 400, code: 'bad_request' },
    ]),
  );
  table(
    [
      'category.title=a',
      'category.nope=a',
      'category.slug<a',
      'category.slug>=a',
      'category.slug:empty',
      'category.slug.x=a',
      'category.=a',
      `category.slug:in=${choices(101)}`,
      'tags<a',
      'tags>=a',
    ].map((text): [string, Refusal] => [
      `articles ${JSON.stringify(text)}`,
      { url: filter('articles', text), status: 400, code: 'bad_request' },
    ]),
  );
  table([
    ['a filter that is an object (filter[a]=b)', { url: '/cms/news?filter[a]=b', status: 400, code: 'bad_request' }],
    [
      'a filter with a lone surrogate (%ED%A0%80)',
      { url: '/cms/news?filter=title%3D%ED%A0%80', status: 400, code: 'bad_request' },
    ],
    ['a filter with a broken escape (%FF)', { url: '/cms/news?filter=title%3D%FF', status: 400, code: 'bad_request' }],
    [
      'a filter of 100 000 characters (headers too large)',
      { url: filter('news', `title=${'x'.repeat(100_000)}`), status: 400, code: 'bad_request' },
    ],
    [
      'a search with an unknown field beside it',
      { url: filter('news', 'search=a', 'nope=b'), status: 400, code: 'bad_request' },
    ],
  ]);
});

describe('hostile list filters that are honoured: 200, never a 500', () => {
  const honoured = (table: string, text: string) =>
    it(`${table} ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)}`, async () => {
      const { response, body, text: raw } = await request(server, 'GET', filter(table, text));
      expect(response.status, raw).toBe(200);
      expect(Array.isArray(body.rows), raw).toBe(true);
    });
  for (const text of [
    `status:in=${Array.from({ length: 100 }, (_, i) => ['draft', 'published', 'archived'][i % 3]).join('|')}`,
    `title:in=${choices(100)}`,
    'status<draft',
    'title>=a',
    'slug<a',
    'status:in=draft',
    'status:in=draft|draft',
    'title:in=a\\|b|c\\\\d',
    `title=${'x'.repeat(4000)}`,
    `title:in=${Array.from({ length: 100 }, () => 'y'.repeat(40)).join('|')}`,
    'title=\u0000',
    'title=\u{1F600}\u200d\u{1F4A9}',
    "title='; drop table news; --",
    'title=%',
    'title=_',
    'title:in=%|_',
    'slug:empty',
    'slug:notempty',
    'status!=',
    'status=',
    'published_at>=0001-01-01 00:00:00',
    'published_at<=9999-12-31 23:59:59',
    'published_at>=2024-02-29 00:00:00',
    'published_at<2025-01-01T10:00:00Z',
    'created_at<\u{1F600}',
    'updated_at:in=a|b',
    'id<zzz',
    `id:in=${choices(100)}`,
    'search=%',
    'search=\u0000',
    `search=${'s'.repeat(5000)}`,
  ])
    honoured('news', text);
  for (const text of [
    'category.slug=culture',
    'category.slug!=culture',
    'category.slug:in=culture|a\\|b',
    'category.slug=',
    'category.slug=\u0000',
    'category:in=a|b',
    'category:empty',
    'tags=a',
    'tags:in=a|b',
    'tags!=a',
    'tags:empty',
    'image=x',
    'category<abc',
    'category=not-an-id-that-could-be',
    'image<a',
    'body<a',
  ])
    honoured('articles', text);
});

describe('search keywords whose case folding changes their length or meaning', () => {
  const titles = ['İstanbul notes', 'STRASSE straße', 'ﬁnal ﬁle', 'ǅemal', 'Ωmega ω', 'e\u0301clair', '(a+)+$ [x] .*'];
  it('answers 200 and finds each row by a piece of its own title', async () => {
    for (const title of titles) await ok('POST', '/cms/news', newsBody({ title }));
    await server.services.rows.searchFlushes.flush();
    for (const title of titles) {
      for (const keyword of [title, title.slice(0, 3), title.toLowerCase(), title.toUpperCase()]) {
        const { response, body, text } = await request(
          server,
          'GET',
          `/cms/news?filter=${encodeURIComponent(`search=${keyword}`)}`,
        );
        expect(response.status, `${keyword}: ${text}`).toBe(200);
        if (keyword === title)
          expect(
            body.rows.map((row: { title: string }) => row.title),
            keyword,
          ).toContain(title);
      }
    }
  });
});

describe('hostile revision ids', () => {
  table([
    ['a word: 404', { url: () => `/cms/news/${news}/revisions/abc`, status: 404, code: 'not_found' }],
    ['negative: 404', { url: () => `/cms/news/${news}/revisions/-1`, status: 404, code: 'not_found' }],
    ['zero: 404', { url: () => `/cms/news/${news}/revisions/0`, status: 404, code: 'not_found' }],
    ['a fraction: 404', { url: () => `/cms/news/${news}/revisions/1.5`, status: 404, code: 'not_found' }],
    ['leading zeros: 404', { url: () => `/cms/news/${news}/revisions/01`, status: 404, code: 'not_found' }],
    ['an exponent: 404', { url: () => `/cms/news/${news}/revisions/1e3`, status: 404, code: 'not_found' }],
    [
      'beyond 64 bits: 404',
      { url: () => `/cms/news/${news}/revisions/99999999999999999999999`, status: 404, code: 'not_found' },
    ],
    [
      'the largest 16-digit number: 404',
      { url: () => `/cms/news/${news}/revisions/9999999999999999`, status: 404, code: 'not_found' },
    ],
    [
      'another row’s revision: 404',
      { url: () => `/cms/news/${news}/revisions/${otherNewsRevision}`, status: 404, code: 'not_found' },
    ],
    [
      'another type’s revision: 404',
      { url: () => `/cms/news/${news}/revisions/${categoryRevision}`, status: 404, code: 'not_found' },
    ],
    [
      'a category revision read as the news row with the category’s id: 404',
      { url: () => `/cms/news/${category}/revisions/${categoryRevision}`, status: 404, code: 'not_found' },
    ],
    [
      'a news revision read under categories with the news row’s id: 404',
      { url: () => `/cms/categories/${news}/revisions/${newsRevision}`, status: 404, code: 'not_found' },
    ],
    [
      'the article’s revisions read under news: 404',
      { url: () => `/cms/news/${article}/revisions`, status: 404, code: 'not_found' },
    ],
    [
      'restore of another row’s revision: 404',
      {
        method: 'POST',
        url: () => `/cms/news/${news}/revisions/${otherNewsRevision}/restore`,
        status: 404,
        code: 'not_found',
      },
    ],
    [
      'restore of another type’s revision: 404',
      {
        method: 'POST',
        url: () => `/cms/news/${news}/revisions/${categoryRevision}/restore`,
        status: 404,
        code: 'not_found',
      },
    ],
    [
      'restore of a category revision under articles with its row id: 404',
      {
        method: 'POST',
        url: () => `/cms/articles/${category}/revisions/${categoryRevision}/restore`,
        status: 404,
        code: 'not_found',
      },
    ],
    [
      'restore of a word: 404',
      { method: 'POST', url: () => `/cms/news/${news}/revisions/abc/restore`, status: 404, code: 'not_found' },
    ],
    [
      'the revisions of a row that never was: 404',
      { url: '/cms/news/never-was/revisions', status: 404, code: 'not_found' },
    ],
    [
      'revisions paged with a negative limit: 400',
      { url: () => `/cms/news/${news}/revisions?limit=-1`, status: 400, code: 'bad_request' },
    ],
    [
      'revisions paged with limit 101: 400',
      { url: () => `/cms/news/${news}/revisions?limit=101`, status: 400, code: 'bad_request' },
    ],
    [
      'revisions paged with two limits: 400',
      { url: () => `/cms/news/${news}/revisions?limit=1&limit=2`, status: 400, code: 'bad_request' },
    ],
    ['the trash of no type: 404', { url: '/cms/nope/trash', status: 404, code: 'not_found' }],
    [
      'the change log of a type named with a NUL: 400 or an empty page, never a 500',
      { url: '/cms-content-changes?type=news%00', status: 400, code: 'bad_request' },
    ],
    ['the trash with offset=x: 400', { url: '/cms/news/trash?offset=x', status: 400, code: 'bad_request' }],
    [
      'restore from the trash of a row that is not deleted: 404',
      { method: 'POST', url: () => `/cms/news/trash/${news}/restore`, status: 404, code: 'not_found' },
    ],
    [
      'restore from the trash of a row that never was: 404',
      { method: 'POST', url: '/cms/news/trash/never-was/restore', status: 404, code: 'not_found' },
    ],
    [
      'restore from the wrong type’s trash: 404',
      { method: 'POST', url: () => `/cms/categories/trash/${news}/restore`, status: 404, code: 'not_found' },
    ],
    [
      'DELETE on a revision: 405',
      { method: 'DELETE', url: () => `/cms/news/${news}/revisions/1`, status: 405, code: 'method_not_allowed' },
    ],
    [
      'the change log with ?type[]=x: 400 or an empty answer',
      { url: '/cms-content-changes?limit=0', status: 400, code: 'bad_request' },
    ],
  ]);

  it('a revision whose field was dropped and added again as another type: read, restored or refused, never a 500', async () => {
    const title = { name: 'title', label: 'Title', type: 'text', required: true };
    const note = (type: string) => ({ name: 'note', label: 'Note', type, required: false });
    await ok('POST', '/cms-content', { title: 'Renoted', columns: [title, note('text')] });
    const id = (await ok('POST', '/cms/renoted', { title: 'r', note: 'hello' })).id;
    const revision = await newestRevision('renoted', id);
    await ok('PUT', '/cms-content/renoted', { columns: [title] });
    await ok('PUT', '/cms-content/renoted', { columns: [title, note('tags')] });
    // The old text reads as one tag (its stored form is not the tags' JSON).
    expect((await ok('GET', `/cms/renoted/${id}/revisions/${revision}`)).row.note).toEqual(['hello']);
    expect((await ok('POST', `/cms/renoted/${id}/revisions/${revision}/restore`)).row.note).toEqual(['hello']);
    await ok('PUT', '/cms-content/renoted', { columns: [title] });
    await ok('PUT', '/cms-content/renoted', { columns: [title, note('number')] });
    const first = (await ok('GET', `/cms/renoted/${id}/revisions?limit=100`)).revisions.at(-1).id;
    await ok('GET', `/cms/renoted/${id}/revisions/${first}`);
    await expectRefused({
      method: 'POST',
      url: `/cms/renoted/${id}/revisions/${first}/restore`,
      status: 400,
      code: 'validation_failed',
    });
  });

  it('restore of a deleted row’s revision across types brings back nothing in the wrong type', async () => {
    const gone = (await ok('POST', '/cms/categories', { title: 'Gone soon' })).id;
    const revision = await newestRevision('categories', gone);
    await ok('DELETE', `/cms/categories/${gone}`);
    await expectRefused({
      method: 'POST',
      url: `/cms/news/${gone}/revisions/${revision}/restore`,
      status: 404,
      code: 'not_found',
    });
    await expectRefused({ method: 'POST', url: `/cms/news/trash/${gone}/restore`, status: 404, code: 'not_found' });
    await ok('POST', `/cms/categories/trash/${gone}/restore`);
  });
});

const future = '2099-01-01 00:00:00';
describe('hostile schedule bodies: nothing scheduled', () => {
  const scheduleUrl = () => `/cms/news/${news}/schedule`;
  table(
    (
      [
        ['no body', undefined, 400],
        ['an array', [], 400],
        ['a string', 'published', 400],
        ['no status', { at: future }, 400],
        ['no at', { status: 'published' }, 400],
        ['a status that is no option', { status: 'publishd', at: future }, 400],
        ['a status that is a number', { status: 1, at: future }, 400],
        ['a status that is an object', { status: { toString: 'x' }, at: future }, 400],
        ['at that is a word', { status: 'published', at: 'tomorrow' }, 400],
        ['at that is a number', { status: 'published', at: 4102444800 }, 400],
        ['at on 30 February', { status: 'published', at: '2030-02-30 10:00:00' }, 400],
        ['at at 24:00', { status: 'published', at: '2030-01-01 24:00:00' }, 400],
        ['at in year 0', { status: 'published', at: '0000-01-01 00:00:00' }, 400],
        ['at in year 10000', { status: 'published', at: '10000-01-01 00:00:00' }, 400],
        ['at with a NUL', { status: 'published', at: '2030-01-01 10:00:00\u0000' }, 400],
        ['at with a zone offset (times are UTC)', { status: 'published', at: '2030-01-01T10:00:00+02:00' }, 400],
        ['at of 10 000 characters', { status: 'published', at: '2'.repeat(10_000) }, 400],
        ['another member', { status: 'published', at: future, title: 'x' }, 400],
        [
          'a member __proto__',
          JSON.parse(`{"status":"published","at":"${future}","__proto__":{"x":1}}`),
          400,
          'bad_request',
        ],
      ] as [string, unknown, number, string?][]
    ).map(([name, json, status, code]): [string, Refusal] => [
      `${name}: ${status}`,
      {
        method: 'POST',
        url: scheduleUrl,
        json,
        status,
        code:
          code ??
          (typeof json === 'object' && json !== null && !Array.isArray(json) ? 'validation_failed' : 'bad_request'),
      },
    ]),
  );
  table([
    [
      'a schedule on a row that does not exist: 404',
      {
        method: 'POST',
        url: '/cms/news/never-was/schedule',
        json: { status: 'published', at: future },
        status: 404,
        code: 'not_found',
      },
    ],
    [
      'a schedule on a type that does not exist: 404',
      {
        method: 'POST',
        url: '/cms/nope/x/schedule',
        json: { status: 'published', at: future },
        status: 404,
        code: 'not_found',
      },
    ],
    [
      'a schedule on a type without a status column (categories): 400',
      {
        method: 'POST',
        url: () => `/cms/categories/${category}/schedule`,
        json: { status: 'published', at: future },
        status: 400,
        code: 'bad_request',
      },
    ],
    [
      'a form-encoded schedule with a bad date: 400',
      { method: 'POST', url: scheduleUrl, body: 'status=published&at=soon', status: 400, code: 'validation_failed' },
    ],
    [
      'cancelling a schedule that is not there: 404',
      { method: 'DELETE', url: scheduleUrl, status: 404, code: 'not_found' },
    ],
    [
      'PUT on a schedule: 405',
      {
        method: 'PUT',
        url: scheduleUrl,
        json: { status: 'published', at: future },
        status: 405,
        code: 'method_not_allowed',
      },
    ],
  ]);

  it('a schedule at the far future, or in the past, is a schedule (past ones apply at once)', async () => {
    const far = await request(server, 'POST', `/cms/news/${otherNews}/schedule`, {
      json: { status: 'published', at: '9999-12-31 23:59:59' },
    });
    expect(far.response.status, far.text).toBe(200);
    expect(far.body.schedule).toMatchObject({ status: 'published', at: '9999-12-31 23:59:59' });
    await ok('DELETE', `/cms/news/${otherNews}/schedule`);
  });
});

describe('hostile hook bodies: nothing stored', () => {
  table(
    (
      [
        ['no url', {}],
        ['an empty url', { url: '' }],
        ['a relative url', { url: '/build' }],
        ['javascript:', { url: 'javascript:alert(1)' }],
        ['file:', { url: 'file:///etc/passwd' }],
        ['ftp:', { url: 'ftp://127.0.0.1/build' }],
        ['data:', { url: 'data:text/plain,hi' }],
        ['a url of 3000 characters', { url: `https://example.com/${'a'.repeat(3000)}` }],
        ['a url of 10 MB-ish characters', { url: `https://example.com/${'a'.repeat(400_000)}` }],
        ['a url that is a number', { url: 42 }],
        ['a url that is an array', { url: ['https://example.com/'] }],
        ['a url with user and password', { url: 'http://builder:s3cret@127.0.0.1:9/build' }],
        ['a url with only a user', { url: 'https://token@example.com/build' }],
        ['a url with spaces for a host', { url: 'http:// /' }],
        ['an unknown content type', { url: 'https://example.com/', content_types: ['nope'] }],
        ['content types as a string', { url: 'https://example.com/', content_types: 'news' }],
        ['an unknown action', { url: 'https://example.com/', actions: ['explode'] }],
        ['actions as a string', { url: 'https://example.com/', actions: 'create' }],
        ['a secret that is an object', { url: 'https://example.com/', secret: { a: 1 } }],
        ['a secret of 513 characters', { url: 'https://example.com/', secret: 's'.repeat(513) }],
        ['an unknown member', { url: 'https://example.com/', headers: { a: 'b' } }],
        ['an array body', ['https://example.com/']],
      ] as [string, unknown][]
    ).map(([name, json]): [string, Refusal] => [
      `${name}: 400`,
      {
        method: 'POST',
        url: '/hooks',
        json,
        status: 400,
        code: Array.isArray(json) || 'headers' in (json as object) ? 'bad_request' : 'validation_failed',
      },
    ]),
  );
  table([
    ['a hook that is not there: 404', { url: '/hooks/nope', status: 404, code: 'not_found' }],
    [
      'a change of a hook that is not there: 404',
      { method: 'PATCH', url: '/hooks/nope', json: { url: 'https://example.com/' }, status: 404, code: 'not_found' },
    ],
    [
      'a test of a hook that is not there: 404',
      { method: 'POST', url: '/hooks/nope/test', status: 404, code: 'not_found' },
    ],
    ['deliveries of a hook that is not there: 404', { url: '/hooks/nope/deliveries', status: 404, code: 'not_found' }],
    [
      'deleting a hook that is not there: 404',
      { method: 'DELETE', url: '/hooks/%2e%2e', status: 404, code: 'not_found' },
    ],
  ]);

  it('a change to a bad url is refused and leaves the hook as it was', async () => {
    const created = await request(server, 'POST', '/hooks', { json: { url: 'http://127.0.0.1:9/build' } });
    expect(created.response.status, created.text).toBe(201);
    const id = created.body.id as string;
    for (const url of ['javascript:alert(1)', 'http://u:p@127.0.0.1:9/', '', null]) {
      await expectRefused({
        method: 'PATCH',
        url: `/hooks/${id}`,
        json: { url },
        status: 400,
        code: 'validation_failed',
      });
    }
    await expectRefused({ url: `/hooks/${id}/deliveries?limit=201`, status: 400, code: 'bad_request' });
    await ok('DELETE', `/hooks/${id}`);
  });

  it('the same address twice makes two hooks (each with its own secret and log)', async () => {
    const one = await ok('POST', '/hooks', { url: 'http://127.0.0.1:9/same' });
    const two = await ok('POST', '/hooks', { url: 'http://127.0.0.1:9/same' });
    expect(one.id).not.toBe(two.id);
    await ok('DELETE', `/hooks/${one.id}`);
    await ok('DELETE', `/hooks/${two.id}`);
  });
});

describe('hostile account and token bodies: nothing stored', () => {
  table(
    (
      [
        [
          '/accounts',
          'a name of 10 000 characters',
          { name: 'n'.repeat(10_000), role: 'viewer', password: 'correct horse battery staple' },
        ],
        ['/accounts', 'an emoji name', { name: '\u{1F600}', role: 'viewer', password: 'correct horse battery staple' }],
        [
          '/accounts',
          'a name with a NUL',
          { name: 'a\u0000b', role: 'viewer', password: 'correct horse battery staple' },
        ],
        ['/accounts', 'a role typo', { name: 'zed', role: 'admn', password: 'correct horse battery staple' }],
        ['/accounts', 'a role in capitals', { name: 'zed', role: 'ADMIN', password: 'correct horse battery staple' }],
        ['/accounts', 'a role __proto__', { name: 'zed', role: '__proto__', password: 'correct horse battery staple' }],
        ['/accounts', 'an empty password', { name: 'zed', role: 'viewer', password: '' }],
        ['/accounts', 'a password that is a number', { name: 'zed', role: 'viewer', password: 123456789012345 }],
        ['/accounts', 'a password of a megabyte-ish', { name: 'zed', role: 'viewer', password: 'p'.repeat(100_000) }],
        ['/accounts', 'no body', undefined],
        ['/tokens', 'a token name of 10 000 characters', { name: 't'.repeat(10_000), role: 'viewer' }],
        ['/tokens', 'a token role typo', { name: 'tok', role: 'viewr' }],
        ['/tokens', 'a token for a type that is no name', { name: 'tok', role: 'viewer', content_types: ['a b'] }],
        ['/tokens', 'a token for no types at all', { name: 'tok', role: 'viewer', content_types: [] }],
        ['/tokens', 'a token expiring in -1 days', { name: 'tok', role: 'viewer', expires_days: -1 }],
        ['/tokens', 'a token expiring in 1e9 days', { name: 'tok', role: 'viewer', expires_days: 1e9 }],
        ['/tokens', 'a token expiring in "7" days', { name: 'tok', role: 'viewer', expires_days: 'NaN' }],
      ] as [string, string, unknown][]
    ).map(([url, name, json]): [string, Refusal] => [
      `${url}: ${name}: 400`,
      { method: 'POST', url, json, status: 400, code: 'bad_request' },
    ]),
  );
});

/** A content type's columns with one select whose options are given. */
const selectType = (title: string, options: unknown) => ({
  title,
  columns: [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'status', label: 'Status', type: 'select', required: true, options },
  ],
});
const titleOnly = [{ name: 'title', label: 'Title', type: 'text', required: true }];

describe('text PostgreSQL cannot store or index: refused on both engines, never a 500', () => {
  table([
    [
      'a select option id of 201 characters (beyond what an index entry holds): 400',
      {
        method: 'POST',
        url: '/cms-content',
        json: selectType('Long options', [{ id: 'o'.repeat(201), text: 'Long' }]),
        status: 400,
        code: 'validation_failed',
      },
    ],
    [
      'a select option id with a NUL: 400',
      {
        method: 'POST',
        url: '/cms-content',
        json: selectType('Nul options', [{ id: 'a\u0000b', text: 'Nul' }]),
        status: 400,
        code: 'validation_failed',
      },
    ],
    [
      'a content-type title with a NUL: 400',
      {
        method: 'POST',
        url: '/cms-content',
        json: { title: 'Nul\u0000type', columns: titleOnly },
        status: 400,
        code: 'validation_failed',
      },
    ],
    [
      'a preview path with a NUL: 400',
      {
        method: 'POST',
        url: '/cms-content',
        json: { title: 'Previewed', preview_path: '/news/\u0000{slug}', columns: titleOnly },
        status: 400,
        code: 'validation_failed',
      },
    ],
    [
      'a hook secret with a NUL: 400',
      {
        method: 'POST',
        url: '/hooks',
        json: { url: 'http://127.0.0.1:9/x', secret: 'a\u0000b' },
        status: 400,
        code: 'validation_failed',
      },
    ],
    [
      'a hook url with a NUL: 400',
      {
        method: 'POST',
        url: '/hooks',
        json: { url: 'http://127.0.0.1:9/x\u0000y' },
        status: 400,
        code: 'validation_failed',
      },
    ],
    [
      'a sign-in name with a NUL: the 401 of any wrong name',
      {
        method: 'POST',
        url: '/auth/sign-in',
        json: { name: 'ada\u0000', password: 'correct horse battery staple' },
        status: 401,
        code: 'unauthorized',
        audited: 'sign_in.failed',
      },
    ],
  ]);

  it('a select option id of 200 characters is a select, and rows hold it', async () => {
    const id = 'o'.repeat(200);
    await ok('POST', '/cms-content', selectType('Long enough', [{ id, text: 'Long' }]));
    await ok('POST', '/cms/long_enough', { title: 'Row', status: id });
    const { body } = await request(server, 'GET', `/cms/long_enough?filter=${encodeURIComponent(`status=${id}`)}`);
    expect(body.filtered).toBe(1);
  });
});

describe('conditional reads with junk validators', () => {
  for (const junk of ['', '*x', '"', 'W/', 'W/"', '"a", "b', ',,,', '\u00ff'.repeat(10), 'x'.repeat(8000)]) {
    it(`If-None-Match ${JSON.stringify(junk.slice(0, 20))}: a full 200 on fast and Express reads`, async () => {
      for (const path of ['/api/cms/news?limit=1', `/api/cms/news/${news}`, `/api/cms/news/${news}/revisions`]) {
        const answer = await rawRequest(server.origin, { path, headers: { 'if-none-match': junk } });
        expect(answer.status, `${path}: ${answer.text}`).toBe(200);
        expect(typeof answer.headers.etag).toBe('string');
      }
    });
  }

  it('If-None-Match: * is a 304 where there is a representation, on fast and Express reads alike (RFC 9110 13.1.2)', async () => {
    for (const path of ['/api/cms/news?limit=1', `/api/cms/news/${news}`, `/api/cms/news/${news}/revisions`]) {
      expect((await rawRequest(server.origin, { path, headers: { 'if-none-match': '*' } })).status, path).toBe(304);
    }
  });

  it('a junk validator beside the current one still matches: 304', async () => {
    const path = `/api/cms/news/${news}`;
    const first = await rawRequest(server.origin, { path });
    const tag = String(first.headers.etag);
    const answer = await rawRequest(server.origin, { path, headers: { 'if-none-match': `"junk", W/"x", ${tag}` } });
    expect(answer.status).toBe(304);
    expect(answer.text).toBe('');
  });

  it('a NUL in If-None-Match (sent raw): a 400 in the error shape, not a 5xx', async () => {
    const answer = await sendBytes(
      server.origin,
      `GET /api/cms/news HTTP/1.1\r\nHost: ${new URL(server.origin).host}\r\nIf-None-Match: "a\u0000b"\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
  });

  it('a 404 and its validators: the same on a fast read and an Express read', async () => {
    const fast = await fetch(`${server.api}/cms/news/never-was`);
    const express = await fetch(`${server.api}/cms/news/never-was/revisions`);
    expect(fast.status).toBe(404);
    expect(express.status).toBe(404);
    expect(fast.headers.get('etag')).toBe(null);
    expect(express.headers.get('etag')).toBe(null);
    const list = await fetch(`${server.api}/cms/nope`);
    expect(list.status).toBe(404);
    expect(list.headers.get('etag')).toBe(null);
    // A refused filter (400) carries none either, nor does a 404 to a conditional request.
    const refused = await fetch(`${server.api}/cms/news?filter=nope%3D1`, { headers: { 'if-none-match': '*' } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('etag')).toBe(null);
    const gone = await fetch(`${server.api}/cms/news/never-was`, { headers: { 'if-none-match': '*' } });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('etag')).toBe(null);
    const noRevision = await fetch(`${server.api}/cms/news/${news}/revisions/999999`, {
      headers: { 'if-none-match': '*' },
    });
    expect(noRevision.status).toBe(404);
    expect(noRevision.headers.get('etag')).toBe(null);
  });
});
