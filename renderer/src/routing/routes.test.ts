import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, EMPTY_LIST_STATE, parseListState, parseLocation, type Route, routeHref } from './routes.js';

describe('editor URLs', () => {
  it.each<[string, Route]>([
    ['/', { name: 'home' }],
    ['/news', { name: 'list', type: 'news', list: EMPTY_LIST_STATE }],
    ['/news/new', { name: 'create', type: 'news', list: EMPTY_LIST_STATE }],
    ['/news/trash', { name: 'trash', type: 'news', list: EMPTY_LIST_STATE }],
    ['/news/rows/new', { name: 'row', type: 'news', id: 'new', list: EMPTY_LIST_STATE }],
    ['/news/rows/01a2-b_c.d~e', { name: 'row', type: 'news', id: '01a2-b_c.d~e', list: EMPTY_LIST_STATE }],
    ['/news/rows/a/b', { name: 'unknown', path: '/news/rows/a/b' }],
    ['/settings/content-types', { name: 'content-types' }],
    ['/settings/content-types/new', { name: 'content-type', slug: null }],
    ['/settings/content-types/edit/new', { name: 'content-type', slug: 'new' }],
    ['/settings/content-types/edit/menu_items', { name: 'content-type', slug: 'menu_items' }],
    ['/settings/content-types/edit/a/b', { name: 'unknown', path: '/settings/content-types/edit/a/b' }],
    ['/settings', { name: 'list', type: 'settings', list: EMPTY_LIST_STATE }],
    ['/settings/rows/content-types', { name: 'row', type: 'settings', id: 'content-types', list: EMPTY_LIST_STATE }],
    ['/settings/media', { name: 'media' }],
    ['/settings/languages', { name: 'languages' }],
    ['/settings/media/x', { name: 'unknown', path: '/settings/media/x' }],
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

  it('writes the content-type screens’ URLs and reads them back', () => {
    for (const route of [
      { name: 'content-types' },
      { name: 'content-type', slug: null },
      { name: 'content-type', slug: 'blog posts' },
      { name: 'media' },
    ] satisfies Route[]) {
      const url = new URL(routeHref(route), 'http://x');
      expect(parseLocation(url.pathname, url.search)).toEqual(route);
    }
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
