import { describe, expect, it } from 'vitest';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { starterType } from '../test-support/content-types.js';
import { changedContentType } from './content-type.js';
import { parseListQuery } from './list-query.js';
import { selectionKey } from './read-cache.js';

const locales: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'fr', label: 'Français', fallback: ['de', 'en'] },
  ],
};

const news = starterType('news');
const categories = starterType('categories');
/** News with a localized title and slug (tags and the rest shared). */
const localized = changedContentType(news, {
  title: news.title,
  kind: news.kind,
  previewPath: news.previewPath,
  columns: news.columns.map((column) =>
    column.name === 'title' || column.name === 'slug' ? { ...column, localized: true } : column,
  ),
});
const list = (query: Record<string, unknown>, type = localized) =>
  parseListQuery(type, query, undefined, new Set(), locales);

describe('lists in a locale', () => {
  it('filters, orders and searches localized columns in the asked locale, shared ones as stored', () => {
    const options = list({
      locale: 'DE',
      filter: ['title=Hafen', 'status=published', 'slug:empty', 'search=haf'],
      order: 'title',
    });
    expect(options.locale).toEqual({ kind: 'one', code: 'de' });
    expect(options.selection).toEqual({
      equals: [
        { column: 'quire_loc:de:title', value: 'Hafen', match: 'equals' },
        { column: 'status', value: 'published', match: 'equals' },
        { column: 'quire_loc:de:slug', value: null, match: 'equals' },
      ],
      search: { columns: ['quire_loc:de:title', 'quire_loc:de:slug'], keywords: ['haf'] },
    });
    expect(options.page).toMatchObject({ order: 'quire_loc:de:title', orderByText: true });
  });

  it('reads the default locale, and locale=all, from the columns themselves (the index covers them)', () => {
    for (const locale of [undefined, 'en', 'all']) {
      const options = list({ locale, filter: ['title>a', 'search=x'], order: 'slug' });
      expect(options.selection.equals).toEqual([{ column: 'title', op: 'gt', value: 'a', match: 'equals' }]);
      expect(options.selection.search).toEqual({ columns: localized.searchColumns, keywords: ['x'] });
      expect(options.page.order).toBe('slug');
    }
    expect(list({ locale: 'all' }).locale).toEqual({ kind: 'all' });
  });

  it('gives each locale the same search columns array on every request (repositories key by it)', () => {
    const first = list({ locale: 'fr', filter: 'search=a' }).selection.search?.columns;
    expect(list({ locale: 'fr', filter: 'search=b' }).selection.search?.columns).toBe(first);
    expect(list({ locale: 'de', filter: 'search=b' }).selection.search?.columns).not.toBe(first);
  });

  it('keeps a type without localized columns exactly as before in every locale', () => {
    const plain = list({ locale: 'de', filter: ['title=x', 'search=y'], order: 'title' }, news);
    expect(plain.selection).toEqual(parseListQuery(news, { filter: ['title=x', 'search=y'] }).selection);
    expect(plain.page.order).toBe('title');
  });

  it('asks for rows missing a value of their own in a listed locale, in any case', () => {
    expect(list({ filter: ['missing:DE', 'status=draft'] }).selection.equals).toEqual([
      { column: 'quire_missing:de', op: 'ne', value: null, match: 'equals' },
      { column: 'status', value: 'draft', match: 'equals' },
    ]);
    expect(list({ filter: 'missing:en' }).selection.equals).toEqual([
      { column: 'quire_missing:en', op: 'ne', value: null, match: 'equals' },
    ]);
    // A type without localized fields lacks nothing in any locale.
    expect(list({ filter: 'missing:de' }, news).selection.equals).toEqual([
      { column: 'id', value: null, match: 'equals' },
    ]);
  });

  it('refuses missing: in a locale the site does not list, naming the ones it does', () => {
    for (const filter of ['missing:es', 'missing:all', 'missing:x-']) {
      expect(() => list({ filter })).toThrowError(
        expect.objectContaining({
          status: 400,
          problems: { 'filter.missing': { code: 'unknown_locale', locales: ['en', 'de', 'fr'] } },
        }),
      );
    }
    expect(() => list({ locale: 'es' })).toThrowError(expect.objectContaining({ status: 400 }));
  });

  it('finds a localized target slug in the list locale', () => {
    const column = {
      name: 'category',
      label: 'Category',
      type: 'relation' as const,
      target: 'categories',
      required: false,
    };
    const withCategory = changedContentType(localized, {
      title: news.title,
      kind: news.kind,
      previewPath: null,
      columns: [...localized.columns, column],
    });
    const localizedCategories = changedContentType(categories, {
      title: categories.title,
      kind: categories.kind,
      previewPath: null,
      columns: categories.columns.map((c) => (c.type === 'slug' ? { ...c, localized: true } : c)),
    });
    const targets = { findBySlug: (slug: string) => (slug === 'categories' ? localizedCategories : undefined) };
    const options = parseListQuery(
      withCategory,
      { filter: 'category.slug=tipps', locale: 'de' },
      targets,
      new Set(),
      locales,
    );
    expect(options.selection.equals[0]?.through).toEqual({ table: 'categories', column: 'quire_loc:de:slug' });
  });

  it('gives a locale its own read-cache key where its columns differ, and shares it where they do not', () => {
    const key = (locale: string) => selectionKey(list({ locale, filter: ['title=x'] }).selection);
    expect(key('de')).not.toBe(key('en'));
    expect(key('fr')).not.toBe(key('de'));
    expect(key('all')).toBe(key('en'));
  });
});
