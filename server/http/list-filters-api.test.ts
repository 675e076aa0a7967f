import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListResponse } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Filters beyond equality: order comparisons, one of several values, empty and not
 * empty, a relation by its target's slug, all combined with AND, with exact counts; anything the
 * server cannot answer exactly is a 400 naming the filter.
 */

let server: TestServer;
let culture: string;
let sport: string;

const EVENTS = [
  {
    title: 'Harbour fest',
    status: 'published',
    starts_at: '2025-06-01 10:00:00',
    day: '2025-06-01',
    price: 10,
    featured: true,
    summary: 'Boats',
    tags: ['boats', 'music'],
    category: 'culture',
  },
  {
    title: 'Night run',
    status: 'draft',
    starts_at: '2025-07-15 20:00:00',
    day: '2025-07-15',
    price: 0,
    featured: false,
    summary: '',
    tags: [],
    category: 'sport',
  },
  {
    title: 'Choir',
    status: 'archived',
    starts_at: '2025-05-01 18:00:00',
    day: '2025-05-01',
    price: 5.5,
    featured: true,
    tags: ['music'],
  },
  // An option id may hold any character, | included: `status=a|b` stays the spec's equality.
  {
    title: 'Pipe dream',
    status: 'a|b',
    starts_at: '2026-01-01 00:00:00',
    day: '2026-01-01',
    price: 100,
    featured: false,
    summary: 'x',
    tags: [],
    category: 'culture',
  },
  { title: 'Book fair', status: 'published', tags: ['books'], category: 'sport' },
];

beforeAll(async () => {
  server = await startTestServer();
  culture = (await request(server, 'POST', '/cms/categories', { body: { title: 'Culture' } })).body.id;
  sport = (await request(server, 'POST', '/cms/categories', { body: { title: 'Sport' } })).body.id;
  const options = ['draft', 'published', 'archived', 'a|b'].map((id) => ({ id, text: id }));
  const created = await request(server, 'POST', '/cms-content', {
    json: {
      title: 'Events',
      table: 'events',
      columns: [
        { name: 'title', type: 'text', required: true },
        { name: 'slug', type: 'slug', parent: 'title', required: true },
        { name: 'status', type: 'select', options },
        { name: 'starts_at', type: 'datetime' },
        { name: 'day', type: 'date' },
        { name: 'price', type: 'number' },
        { name: 'featured', type: 'boolean' },
        { name: 'summary', type: 'textarea' },
        { name: 'tags', type: 'tags' },
        { name: 'category', type: 'relation', target: 'categories' },
      ].map((column) => ({ label: column.name, ...column })),
    },
  });
  expect(created.response.status, JSON.stringify(created.body)).toBe(201);
  for (const event of EVENTS) {
    const category = event.category === 'culture' ? culture : event.category === 'sport' ? sport : undefined;
    const made = await request(server, 'POST', '/cms/events', { json: { ...event, category } });
    expect(made.response.status, JSON.stringify(made.body)).toBe(201);
  }
});
afterAll(() => server.dispose());

const query = (filters: readonly string[], extra = '') =>
  `?${filters.map((filter) => `filter=${encodeURIComponent(filter)}`).join('&')}${extra}`;

async function list(filters: readonly string[], extra = ''): Promise<ListResponse> {
  const { response, body } = await request(server, 'GET', `/cms/events${query(filters, extra)}`);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** The titles a filter selects, in id order (rows were created in EVENTS order). */
async function titles(...filters: string[]): Promise<string[]> {
  const body = await list(filters, '&limit=1000');
  expect(body.filtered).toBe(body.rows.length);
  expect(body.total).toBe(EVENTS.length);
  return body.rows.map((row) => String(row.title)).sort();
}

const sorted = (...names: string[]) => [...names].sort();

describe('order comparisons', () => {
  it.each([
    ['starts_at<=2025-07-15 20:00:00', ['Harbour fest', 'Night run', 'Choir']],
    ['starts_at<2025-07-15 20:00:00', ['Harbour fest', 'Choir']],
    ['starts_at>2025-06-01 10:00:00', ['Night run', 'Pipe dream']],
    ['starts_at>=2025-06-01T10:00', ['Harbour fest', 'Night run', 'Pipe dream']],
    ['day>=2025-07-01', ['Night run', 'Pipe dream']],
    ['day<2025-06-01', ['Choir']],
    // Numbers compare as numbers (as text, "10" would sort before "5.5").
    ['price>5', ['Harbour fest', 'Choir', 'Pipe dream']],
    ['price<=5.5', ['Night run', 'Choir']],
    ['title>=N', ['Night run', 'Pipe dream']],
    ['created_at>=2000-01-01', EVENTS.map((event) => event.title)],
    ['created_at<2000-01-01', []],
  ])('%s', async (filter, expected) => {
    expect(await titles(filter)).toEqual(sorted(...expected));
  });

  it('makes a range from two comparisons (AND)', async () => {
    expect(await titles('starts_at>=2025-06-01 00:00:00', 'starts_at<=2025-12-31 23:59:59')).toEqual(
      sorted('Harbour fest', 'Night run'),
    );
  });
});

describe('not equal, one of, empty and not empty', () => {
  it.each([
    // A row without a value is not equal to the value either.
    ['price!=10', ['Night run', 'Choir', 'Pipe dream', 'Book fair']],
    ['status!=published', ['Night run', 'Choir', 'Pipe dream']],
    ['status:in=draft|archived', ['Night run', 'Choir']],
    ['status:in=a\\|b|draft', ['Pipe dream', 'Night run']],
    ['status:in=published', ['Harbour fest', 'Book fair']],
    ['status=a|b', ['Pipe dream']],
    ['price:in=0|100', ['Night run', 'Pipe dream']],
    ['featured=true', ['Harbour fest', 'Choir']],
    ['featured=false', ['Night run', 'Pipe dream']],
    ['featured:empty', ['Book fair']],
    ['summary:empty', ['Night run', 'Choir', 'Book fair']],
    ['summary=', ['Night run', 'Choir', 'Book fair']],
    ['summary:notempty', ['Harbour fest', 'Pipe dream']],
    ['summary!=', ['Harbour fest', 'Pipe dream']],
    ['tags=music', ['Harbour fest', 'Choir']],
    ['tags:in=boats|books', ['Harbour fest', 'Book fair']],
    ['tags!=music', ['Night run', 'Pipe dream', 'Book fair']],
    ['tags:empty', ['Night run', 'Pipe dream']],
    ['tags:notempty', ['Harbour fest', 'Choir', 'Book fair']],
  ])('%s', async (filter, expected) => {
    expect(await titles(filter)).toEqual(sorted(...expected));
  });
});

describe("relations by id and by the target's slug", () => {
  it('by id', async () => {
    expect(await titles(`category=${culture}`)).toEqual(sorted('Harbour fest', 'Pipe dream'));
    expect(await titles(`category:in=${culture}|${sport}`)).toEqual(
      sorted('Harbour fest', 'Night run', 'Pipe dream', 'Book fair'),
    );
    expect(await titles('category:empty')).toEqual(['Choir']);
  });

  it.each([
    ['category.slug=culture', ['Harbour fest', 'Pipe dream']],
    ['category.slug:in=culture|sport', ['Harbour fest', 'Night run', 'Pipe dream', 'Book fair']],
    ['category.slug!=culture', ['Night run', 'Choir', 'Book fair']],
    ['category.slug=nobody', []],
  ])('%s', async (filter, expected) => {
    expect(await titles(filter)).toEqual(sorted(...expected));
  });
});

describe('several filters', () => {
  it('combine with AND, with exact counts however the page is cut', async () => {
    expect(await titles('status=published', 'category.slug=sport')).toEqual(['Book fair']);
    expect(await titles('status:in=published|draft', 'price>=0', 'featured=false')).toEqual(['Night run']);
    expect(await titles('tags=music', 'starts_at>2025-05-30 00:00:00', 'summary:notempty')).toEqual(['Harbour fest']);
    const page = await list(['status!=archived', 'starts_at:notempty'], '&limit=1&order=starts_at&desc=true');
    expect(page).toMatchObject({ total: 5, filtered: 3, count: 1 });
    expect(page.rows[0].title).toBe('Pipe dream');
  });

  it('keep exact counts across writes (the read cache follows or recomputes each operator)', async () => {
    const counts = async () => ({
      drafts: (await list(['status:in=draft|archived'])).filtered,
      notPublished: (await list(['status!=published'])).filtered,
      cheap: (await list(['price<50'])).filtered,
      culture: (await list(['category.slug=culture'])).filtered,
    });
    const before = await counts();
    expect(before).toEqual({ drafts: 2, notPublished: 3, cheap: 3, culture: 2 });
    const made = await request(server, 'POST', '/cms/events', {
      json: { title: 'Extra', status: 'draft', price: 1, category: culture },
    });
    expect(made.response.status).toBe(201);
    expect(await counts()).toEqual({ drafts: 3, notPublished: 4, cheap: 4, culture: 3 });
    const changed = await request(server, 'PUT', `/cms/events/${made.body.id}`, {
      json: { status: 'published', price: 500, category: sport },
    });
    expect(changed.response.status).toBe(200);
    expect(await counts()).toEqual(before);
    expect((await request(server, 'DELETE', `/cms/events/${made.body.id}`)).response.status).toBe(200);
    expect(await counts()).toEqual(before);
  });
});

describe('what cannot be answered exactly is a 400 naming the filter', () => {
  it.each([
    ['tags<a', 'tags', { code: 'not_comparable' }],
    ['price>abc', 'price', { code: 'not_a_number' }],
    ['price:in=1|x', 'price', { code: 'not_a_number' }],
    ['starts_at>=soon', 'starts_at', { code: 'not_a_datetime' }],
    ['starts_at<', 'starts_at', { code: 'not_a_filter' }],
    ['status:in=draft|live', 'status', { code: 'not_an_option', options: ['draft', 'published', 'archived', 'a|b'] }],
    ['status:in=', 'status', { code: 'no_filter_values' }],
    ['status:like=x', 'status', { code: 'not_a_filter' }],
    ['status~draft', 'status~draft', { code: 'not_a_filter' }],
    ['featured=maybe', 'featured', { code: 'not_a_boolean' }],
    ['colour<3', 'colour', { code: 'not_a_field', table: 'events' }],
    ['title.slug=x', 'title', { code: 'not_a_relation' }],
    ['category.title=x', 'category', { code: 'not_a_target_slug', table: 'categories', slugs: ['slug'] }],
    ['category.slug>a', 'category', { code: 'not_a_filter' }],
    ['summary>\u0000', 'summary', { code: 'nul_character' }],
  ])('%s', async (filter, field, problem) => {
    const { response, body } = await request(server, 'GET', `/cms/events${query([filter, 'status=draft'])}`);
    expect(response.status).toBe(400);
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toContain(JSON.stringify(filter));
    expect(body.error.problems).toEqual({ [`filter.${field}`]: problem });
  });

  it('refuses more than 100 choices', async () => {
    const many = Array.from({ length: 101 }, (_, i) => String(i)).join('|');
    const { response, body } = await request(server, 'GET', `/cms/events${query([`price:in=${many}`])}`);
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ 'filter.price': { code: 'too_many', max: 100, of: 'values' } });
  });
});

describe('a compared value that begins with an operator character', () => {
  it.each([
    ['title<>=Night run', '<', '>=Night run'],
    ['title==Choir', '=', '=Choir'],
    ['price=>5', '=', '>5'],
    ['price<>0', '<', '>0'],
    ['status!==draft', '!=', '=draft'],
    ['category.slug=!sport', '=', '!sport'],
  ])('refuses %s as ambiguous, quoting it', async (filter, operator, value) => {
    const { response, body } = await request(server, 'GET', `/cms/events${query([filter])}`);
    expect(response.status).toBe(400);
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toContain(JSON.stringify(filter));
    expect(body.error.problems).toEqual({
      [`filter.${filter.split(/[=!<>.]/)[0]}`]: { code: 'ambiguous_filter', operator, value },
    });
  });

  it('compares with such a value when a \\ is written before it', async () => {
    const made = await Promise.all(
      ['>= sign', '=equal', '\\back'].map((title) => request(server, 'POST', '/cms/events', { json: { title } })),
    );
    try {
      for (const { response } of made) expect(response.status).toBe(201);
      expect((await list(['title=\\>= sign'])).rows.map((row) => row.title)).toEqual(['>= sign']);
      expect((await list(['title=\\=equal'])).rows.map((row) => row.title)).toEqual(['=equal']);
      // A `\` before anything but an operator character or a `\` is the value's own.
      expect((await list(['title=\\back'])).rows.map((row) => row.title)).toEqual(['\\back']);
      expect((await list(['title=\\\\back'])).rows.map((row) => row.title)).toEqual(['\\back']);
      expect((await list(['title!=\\>= sign'])).filtered).toBe(EVENTS.length + 2);
    } finally {
      for (const { body } of made) await request(server, 'DELETE', `/cms/events/${body.id}`);
    }
  });
});
