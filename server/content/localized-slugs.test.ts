import { describe, expect, it } from 'vitest';
import type { ColumnValue } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { uniqueSlug } from '../../common/slug-rules.js';
import { starterType } from '../test-support/content-types.js';
import { changedContentType } from './content-type.js';
import { assignSlugs, type SlugLookup } from './slug-columns.js';

/** Slugs of a type whose title and slug are localized: unique per locale after fallback, generated per locale. */

const LOCALES: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'fr', label: 'Français', fallback: ['de', 'en'] },
  ],
};

const news = starterType('news');
const pages = changedContentType(news, {
  title: news.title,
  kind: news.kind,
  previewPath: null,
  columns: news.columns.map((column) =>
    column.name === 'title' || column.name === 'slug' ? { ...column, localized: true } : column,
  ),
});

/** A lookup over stored rows: column -> the values other rows hold. */
function lookupOver(stored: Record<string, string[]>): SlugLookup & { asked: string[] } {
  const asked: string[] = [];
  const taken = (column: string, slug: string) => {
    asked.push(column);
    return (stored[column] ?? []).includes(slug);
  };
  return {
    asked,
    isTaken: taken,
    firstFree: (column, base) => uniqueSlug(base, (candidate) => (stored[column] ?? []).includes(candidate)),
  };
}

const input = (values: Record<string, ColumnValue>, localized: Record<string, Record<string, ColumnValue>> = {}) => ({
  values: new Map(Object.entries(values)),
  localized: new Map(Object.entries(localized).map(([code, map]) => [code, new Map(Object.entries(map))])),
  meta: undefined,
});

describe('localized slugs', () => {
  it('generates a slug in each locale written from the title in that locale', async () => {
    const written = input({ title: 'Harbour', status: 'draft' }, { de: { title: 'Hafen' }, fr: { title: 'Port' } });
    const values = await assignSlugs(pages, written, null, lookupOver({}), {
      document: LOCALES,
      localized: written.localized,
    });
    expect(values.get('slug')).toBe('harbour');
    expect(written.localized.get('de')?.get('slug')).toBe('hafen');
    expect(written.localized.get('fr')?.get('slug')).toBe('port');
  });

  it('numbers a generated slug past those taken where it may show: its locale and those falling back to it', async () => {
    // fr falls back to de: "hafen" shown in fr by another row keeps de from taking it.
    const lookup = lookupOver({ 'quire_loc:fr:slug': ['hafen'], 'quire_loc:de:slug': ['hafen-2'] });
    const written = input({ title: 'Harbour' }, { de: { title: 'Hafen' } });
    await assignSlugs(pages, written, null, lookup, { document: LOCALES, localized: written.localized });
    expect(written.localized.get('de')?.get('slug')).toBe('hafen-3');
  });

  it('refuses a given slug another row shows in that locale, naming the field (409 taken)', async () => {
    const lookup = lookupOver({ 'quire_loc:de:slug': ['hafen'] });
    const written = input({}, { de: { slug: 'hafen' } });
    const current = { id: 'a', title: 'Harbour', slug: 'harbour' };
    await expect(
      assignSlugs(pages, written, current, lookup, { document: LOCALES, localized: written.localized }),
    ).rejects.toMatchObject({ status: 409, problems: { slug: { code: 'taken' } } });
    // The same slug in another locale is another locale's business.
    const inFr = input({}, { fr: { slug: 'hafen' } });
    await expect(
      assignSlugs(pages, inFr, current, lookupOver({ 'quire_loc:de:slug': ['hafen'] }), {
        document: LOCALES,
        localized: inFr.localized,
      }),
    ).resolves.toBeDefined();
  });

  it("checks a default locale's slug in the locales falling back to it", async () => {
    const lookup = lookupOver({ 'quire_loc:de:slug': ['harbour'] });
    const written = input({ title: 'Harbour' });
    const values = await assignSlugs(pages, written, null, lookup, { document: LOCALES, localized: written.localized });
    expect(values.get('slug')).toBe('harbour-2');
  });

  it("keeps a row's own slug in a locale, and lets a cleared one fall back", async () => {
    const current = {
      id: 'a',
      title: 'Harbour',
      slug: 'harbour',
      'quire_loc:de:title': 'Hafen',
      'quire_loc:de:slug': 'alter-hafen',
      'quire_missing:de': null,
    };
    const retitled = input({}, { de: { title: 'Neuer Hafen' } });
    await assignSlugs(pages, retitled, current, lookupOver({}), { document: LOCALES, localized: retitled.localized });
    expect(retitled.localized.get('de')?.has('slug')).toBe(false);
    const cleared = input({}, { de: { slug: null } });
    await assignSlugs(pages, cleared, current, lookupOver({}), { document: LOCALES, localized: cleared.localized });
    expect(cleared.localized.get('de')?.get('slug')).toBe(null);
  });

  it('asks only the column itself for a type without localized slugs', async () => {
    const lookup = lookupOver({});
    const written = input({ title: 'Harbour', slug: 'harbour' });
    await assignSlugs(news, written, null, lookup, { document: LOCALES, localized: written.localized });
    expect(lookup.asked).toEqual(['slug']);
  });
});
