import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentRow, ListResponse } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { seedNews } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/** Twelve rows with known titles, statuses and dates; the list tests reason about them. */
const ROWS = [
  { title: 'Über Café opens', status: 'published', published_at: '2025-01-05 09:00:00' },
  { title: 'Harbour festival', status: 'published', published_at: '2025-02-01 12:00:00' },
  { title: 'Council budget', status: 'draft', published_at: '2025-03-10 08:30:00' },
  { title: 'über-fast fibre', status: 'published', published_at: '2025-01-20 10:00:00' },
  { title: 'Library hours', status: 'archived', published_at: '2024-12-01 07:00:00' },
  { title: 'Night buses', status: 'published', published_at: '2025-04-02 22:15:00' },
  { title: 'School choir', status: 'draft', published_at: '2025-02-14 16:00:00' },
  { title: 'Museum map', status: 'published', published_at: '2025-03-03 11:11:11' },
  { title: 'Cafe culture', status: 'published', published_at: '2025-03-03 11:11:11' },
  { title: 'Weather warning', status: 'archived', published_at: '2025-05-05 05:05:05' },
  { title: 'Smørrebrød pop-up', status: 'draft', published_at: '2025-06-01 12:00:00' },
  { title: 'Jalapeño days', status: 'published', published_at: '2025-06-15 18:00:00' },
];
const PUBLISHED = ROWS.filter((row) => row.status === 'published');

let server: TestServer;
let seeded: ContentRow[];

beforeAll(async () => {
  server = await startTestServer();
  seeded = await seedNews(server, ROWS);
});
afterAll(() => server.dispose());

async function list(query: string): Promise<ListResponse> {
  const { response, body } = await request(server, 'GET', `/cms/news${query}`);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function refused(query: string): Promise<string> {
  const { response, body } = await request(server, 'GET', `/cms/news${query}`);
  expect(response.status).toBe(400);
  const { fields: _fields, problems, ...rest } = body.error;
  expect(Object.keys(rest).sort()).toEqual(['code', 'message', 'status']);
  // A filter value its column refuses is also named as data, under `filter.<field>`.
  if (problems) expect(Object.keys(problems)).toEqual([expect.stringMatching(/^filter\./)]);
  expect(body.error.code).toBe('bad_request');
  return body.error.message;
}

it('names a refused filter value as data', async () => {
  const { body } = await request(server, 'GET', '/cms/news?filter=published_at=tomorrow');
  expect(body.error.problems).toEqual({ 'filter.published_at': { code: 'not_a_datetime' } });
});

const titles = (response: ListResponse) => response.rows.map((row) => String(row.title));

describe('GET /api/cms/:type', () => {
  it('answers with exactly the spec fields, all rows counted', async () => {
    const body = await list('');
    expect(Object.keys(body)).toEqual([
      'time',
      'total',
      'filtered',
      'count',
      'pk',
      'rows',
      'columns',
      'filters',
      'preview_path',
      'custom',
    ]);
    expect(body).toMatchObject({
      total: 12,
      filtered: 12,
      count: 12,
      pk: 'id',
      filters: [],
      preview_path: null,
      custom: false,
    });
    for (const phase of ['total', 'init', 'filter', 'data', 'count', 'format'] as const) {
      expect(typeof body.time[phase]).toBe('number');
    }
  });

  it('lists rows in creation order by default (ids are time-ordered)', async () => {
    expect(titles(await list(''))).toEqual(ROWS.map((row) => row.title));
  });

  it('sends the timing as a Server-Timing header as well', async () => {
    const { response } = await request(server, 'GET', '/cms/news');
    expect(response.headers.get('server-timing')).toMatch(
      /total;dur=.*init;dur=.*filter;dur=.*data;dur=.*count;dur=.*format;dur=/,
    );
  });

  describe('filter=<field>=<value>', () => {
    it('returns only rows where the field equals the value; total stays all rows', async () => {
      const body = await list('?filter=status%3Dpublished');
      expect(body).toMatchObject({ total: 12, filtered: PUBLISHED.length, count: PUBLISHED.length });
      expect(body.rows.every((row) => row.status === 'published')).toBe(true);
    });

    it('combines repeated filters with AND', async () => {
      const body = await list('?filter=status=published&filter=published_at=2025-03-03%2011:11:11');
      expect(titles(body).sort()).toEqual(['Cafe culture', 'Museum map']);
      expect(body.filtered).toBe(2);
    });

    it('filters on the id and other system fields', async () => {
      const body = await list(`?filter=id=${seeded[2].id}`);
      expect(titles(body)).toEqual(['Council budget']);
      expect((await list('?filter=created_by=tester')).filtered).toBe(12);
    });

    it('matches nothing when no row has the value', async () => {
      expect(await list('?filter=title=Nobody')).toMatchObject({ filtered: 0, count: 0, total: 12, rows: [] });
    });
  });

  describe('filter=search=<keyword>', () => {
    it('finds the keyword in the title, ignoring case, Unicode-aware', async () => {
      const body = await list(`?filter=${encodeURIComponent('search=ÜBER')}`);
      expect(titles(body).sort()).toEqual(['Über Café opens', 'über-fast fibre']);
      expect(body.filtered).toBe(2);
    });

    it('finds the keyword in the slug', async () => {
      // "Über Café opens" has the slug uber-cafe-opens; "Cafe culture" matches by title.
      const body = await list('?filter=search=cafe');
      expect(titles(body).sort()).toEqual(['Cafe culture', 'Über Café opens']);
    });

    it('matches a substring inside a word', async () => {
      expect(titles(await list('?filter=search=rebr'))).toEqual(['Smørrebrød pop-up']);
    });

    it('combines with an equality filter', async () => {
      const body = await list('?filter=search=cafe&filter=status=published');
      expect(body.filtered).toBe(2);
      const drafts = await list('?filter=search=o&filter=status=draft');
      expect(drafts.rows.every((row) => row.status === 'draft')).toBe(true);
    });
  });

  describe('limit and offset', () => {
    it('caps the rows returned while filtered counts every match', async () => {
      const body = await list('?filter=status=published&limit=2');
      expect(body).toMatchObject({ total: 12, filtered: PUBLISHED.length, count: 2 });
    });

    it('pages through rows without overlap or gaps', async () => {
      const pages: string[] = [];
      for (let offset = 0; offset < 12; offset += 5) {
        pages.push(...titles(await list(`?order=published_at&limit=5&offset=${offset}`)));
      }
      expect(pages).toHaveLength(12);
      expect(new Set(pages).size).toBe(12);
    });

    it('answers limit=0 with counts and no rows', async () => {
      expect(await list('?limit=0')).toMatchObject({ count: 0, filtered: 12, rows: [] });
    });

    it('returns an empty page past the end', async () => {
      expect(await list('?offset=50')).toMatchObject({ count: 0, filtered: 12 });
    });
  });

  describe('order and desc', () => {
    it('sorts ascending by a field', async () => {
      const dates = (await list('?order=published_at')).rows.map((row) => row.published_at as string);
      expect(dates).toEqual([...dates].sort());
    });

    it('sorts descending with desc=true, newest first', async () => {
      const body = await list('?order=published_at&desc=true&limit=3');
      expect(titles(body)).toEqual(['Jalapeño days', 'Smørrebrød pop-up', 'Weather warning']);
    });

    it('breaks ties by id so equal values keep a stable order', async () => {
      const ascending = titles(await list('?filter=published_at=2025-03-03%2011:11:11&order=published_at'));
      const descending = titles(await list('?filter=published_at=2025-03-03%2011:11:11&order=published_at&desc=true'));
      expect(ascending).toEqual(['Museum map', 'Cafe culture']);
      expect(descending).toEqual(['Cafe culture', 'Museum map']);
    });

    it('sorts text fields', async () => {
      expect(titles(await list('?order=title&limit=2'))).toEqual(['Cafe culture', 'Council budget']);
    });

    it('combines filter, order, desc and limit in one query', async () => {
      const body = await list('?filter=status=published&order=published_at&desc=true&limit=2');
      expect(titles(body)).toEqual(['Jalapeño days', 'Night buses']);
      expect(body).toMatchObject({ filtered: PUBLISHED.length, count: 2, total: 12 });
    });
  });

  describe('refuses what it cannot answer exactly, with a 400 that says why', () => {
    it.each([
      ['?filter=colour=red', /colour.*not a field of news/],
      ['?filter=status', /field=value/],
      ['?filter=status=live', /must be one of draft, published, archived/],
      ['?filter=published_at=tomorrow', /real date and time/],
      ['?order=colour', /colour.*not a field of news/],
      ['?order=meta', /meta.*not a field of news/],
      ['?limit=abc', /limit must be a whole number from 0 to 1000/],
      ['?limit=1001', /limit must be a whole number from 0 to 1000/],
      ['?limit=-1', /limit must be a whole number/],
      ['?offset=1.5', /offset must be a whole number/],
      ['?desc=maybe', /desc must be true or false/],
      ['?limit=1&limit=2', /limit must be a whole number/],
      ['?sort=title', /Unknown query parameter "sort"/],
    ])('%s', async (query, message) => {
      expect(await refused(query)).toMatch(message);
    });
  });
});

describe('limits on a larger type', () => {
  let big: TestServer;
  beforeAll(async () => {
    big = await startTestServer();
    await seedNews(
      big,
      Array.from({ length: 1005 }, (_, index) => ({ title: `Row ${String(index).padStart(4, '0')}` })),
    );
    // 1,005 creates over HTTP: more than the default 10 s on a loaded machine.
  }, 60_000);
  afterAll(() => big.dispose());

  it('returns 100 rows when no limit is given', async () => {
    const { body } = await request(big, 'GET', '/cms/news');
    expect(body).toMatchObject({ total: 1005, filtered: 1005, count: 100 });
  });

  it('returns up to 1000 rows with limit=1000', async () => {
    const { body } = await request(big, 'GET', '/cms/news?limit=1000');
    expect(body.count).toBe(1000);
  });
});
