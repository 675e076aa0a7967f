import { describe, expect, it } from 'vitest';
import { starterType } from '../test-support/content-types.js';
import { DEFAULT_LIMIT, MAX_LIMIT, parseListQuery } from './list-query.js';

const news = starterType('news');

describe('parseListQuery', () => {
  it('defaults to the first 100 rows in id order', () => {
    expect(parseListQuery(news, {})).toEqual({
      selection: { equals: [] },
      page: { limit: DEFAULT_LIMIT, offset: 0, order: 'id', desc: false, orderByText: false },
      locale: { kind: 'one', code: 'en' },
    });
  });

  it('reads an equality filter, a search, limit, offset, order and desc together', () => {
    const options = parseListQuery(news, {
      filter: ['status=published', 'search=Über'],
      limit: '20',
      offset: '40',
      order: 'published_at',
      desc: 'true',
    });
    expect(options.selection).toEqual({
      equals: [{ column: 'status', value: 'published', match: 'equals' }],
      search: { columns: ['title', 'slug'], keywords: ['Über'] },
    });
    expect(options.page).toEqual({ limit: 20, offset: 40, order: 'published_at', desc: true, orderByText: false });
  });

  it('splits a filter at the first equals sign only', () => {
    const options = parseListQuery(news, { filter: 'title=a=b' });
    expect(options.selection.equals).toEqual([{ column: 'title', value: 'a=b', match: 'equals' }]);
  });

  it('normalises datetime filter values', () => {
    const options = parseListQuery(news, { filter: 'published_at=2025-01-02T03:04:05' });
    expect(options.selection.equals).toEqual([
      { column: 'published_at', value: '2025-01-02 03:04:05', match: 'equals' },
    ]);
  });

  it('reads an empty filter value as "has no value"', () => {
    expect(parseListQuery(news, { filter: 'title=' }).selection.equals).toEqual([
      { column: 'title', value: null, match: 'equals' },
    ]);
  });

  it('ignores an empty search keyword', () => {
    expect(parseListQuery(news, { filter: 'search=' }).selection).toEqual({ equals: [] });
  });

  it('accepts system fields in filter and order', () => {
    const options = parseListQuery(news, { filter: 'created_by=ann', order: 'updated_at' });
    expect(options.selection.equals).toEqual([{ column: 'created_by', value: 'ann', match: 'equals' }]);
    expect(options.page.order).toBe('updated_at');
  });

  it.each([
    [{ filter: 'nope=1' }, /not a field of news/],
    [{ filter: 'status' }, /must have the form field=value/],
    [{ filter: '=x' }, /must have the form field=value/],
    [{ filter: 'status=bogus' }, /must be one of/],
    [{ filter: 'meta=x' }, /not a field of news/],
    [{ filter: 'published_at=soon' }, /real date and time/],
    [{ order: 'nope' }, /not a field of news/],
    [{ order: ['title', 'slug'] }, /order must be given once/],
    [{ limit: '-1' }, /limit must be a whole number/],
    [{ limit: '1.5' }, /limit must be a whole number/],
    [{ limit: String(MAX_LIMIT + 1) }, /limit must be a whole number from 0 to 1000/],
    [{ limit: 'ten' }, /limit must be a whole number/],
    [{ offset: '-5' }, /offset must be a whole number/],
    [{ desc: 'yes' }, /desc must be true or false/],
    [{ page: '2' }, /Unknown query parameter "page"/],
  ])('refuses %j with a message saying what is wrong', (query, message) => {
    expect(() => parseListQuery(news, query as Record<string, unknown>)).toThrow(message);
  });

  it('accepts desc=false and the asc/desc words', () => {
    expect(parseListQuery(news, { desc: 'false' }).page.desc).toBe(false);
    expect(parseListQuery(news, { desc: 'desc' }).page.desc).toBe(true);
    expect(parseListQuery(news, { desc: 'asc' }).page.desc).toBe(false);
  });

  it('ignores the usual cache-buster parameter', () => {
    expect(parseListQuery(news, { _: '12345' }).page.limit).toBe(DEFAULT_LIMIT);
  });
});
