import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, EMPTY_LIST_STATE, parseListState, parseLocation, type Route, routeHref } from './routes.js';

describe('editor URLs', () => {
  it.each<[string, Route]>([
    ['/', { name: 'home' }],
    ['/news', { name: 'list', type: 'news', list: EMPTY_LIST_STATE }],
    ['/news/new', { name: 'create', type: 'news', list: EMPTY_LIST_STATE }],
    ['/news/rows/new', { name: 'row', type: 'news', id: 'new', list: EMPTY_LIST_STATE }],
    ['/news/rows/01a2-b_c.d~e', { name: 'row', type: 'news', id: '01a2-b_c.d~e', list: EMPTY_LIST_STATE }],
    ['/news/rows/a/b', { name: 'unknown', path: '/news/rows/a/b' }],
    ['/news/%E0%A4%A', { name: 'unknown', path: '/news/%E0%A4%A' }],
  ])('reads %s', (path, route) => {
    expect(parseLocation(path, '')).toEqual(route);
  });

  it('keeps search, filters, sort, page size and page in the query and reads them back', () => {
    const list = {
      search: 'harbour & sea',
      page: 3,
      pageSize: 100,
      filters: { status: 'published' },
      sort: { order: 'published_at', desc: true },
    };
    const href = routeHref({ name: 'row', type: 'news', id: 'r 1', list });
    expect(href).toBe(
      '/news/rows/r%201?q=harbour+%26+sea&f.status=published&order=published_at&desc=1&size=100&page=3',
    );
    const url = new URL(href, 'http://x');
    expect(parseLocation(url.pathname, url.search)).toEqual({ name: 'row', type: 'news', id: 'r 1', list });
  });

  it('leaves defaults out of the URL', () => {
    expect(routeHref({ name: 'list', type: 'news', list: EMPTY_LIST_STATE })).toBe('/news');
  });

  it('falls back to defaults for malformed values instead of failing', () => {
    expect(parseListState('?page=-2&size=7&order=&f.status=')).toEqual({
      ...EMPTY_LIST_STATE,
      pageSize: DEFAULT_PAGE_SIZE,
    });
  });
});
