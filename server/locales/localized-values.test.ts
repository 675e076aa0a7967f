import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { localeColumnName, missingColumnName } from '../db/queries/internal-names.js';
import {
  localeReadPlan,
  localeStorageColumns,
  ownValuesOf,
  readInLocale,
  storedFromOwn,
  valueColumnIn,
} from './localized-values.js';

const COLUMNS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'body', label: 'Body', type: 'markdown', required: false, localized: true },
  { name: 'price', label: 'Price', type: 'number', required: false },
];

const SITE: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'de-AT', label: 'Deutsch (Österreich)', fallback: ['de', 'en'] },
    { code: 'fr', label: 'Français' },
  ],
};

describe('localized values', () => {
  it('stores a column per other locale and a missing column per locale, none without localized columns', () => {
    const names = localeStorageColumns(SITE, COLUMNS).map((column) => column.name);
    expect(names).toEqual([
      localeColumnName('title', 'de'),
      localeColumnName('body', 'de'),
      localeColumnName('title', 'de-AT'),
      localeColumnName('body', 'de-AT'),
      localeColumnName('title', 'fr'),
      localeColumnName('body', 'fr'),
      missingColumnName('en'),
      missingColumnName('de'),
      missingColumnName('de-AT'),
      missingColumnName('fr'),
    ]);
    expect(localeStorageColumns(SITE, [COLUMNS[2]])).toEqual([]);
    expect(valueColumnIn(SITE, COLUMNS[0], 'en')).toBe('title');
    expect(valueColumnIn(SITE, COLUMNS[0], 'de')).toBe(localeColumnName('title', 'de'));
    expect(valueColumnIn(SITE, COLUMNS[2], 'de')).toBe('price');
  });

  it('resolves each locale along its chain as written, recording where fallbacks came from', () => {
    const stored = storedFromOwn(SITE, COLUMNS, {
      en: { title: 'Harbour', body: 'Boats' },
      de: { title: 'Hafen', body: '' },
      'de-AT': { title: null, body: null },
    });
    expect(readInLocale(SITE, COLUMNS, stored, 'en')).toEqual({
      values: { title: 'Harbour', body: 'Boats' },
      fallbacks: {},
    });
    expect(readInLocale(SITE, COLUMNS, stored, 'de')).toEqual({
      values: { title: 'Hafen', body: 'Boats' },
      fallbacks: { body: 'en' },
    });
    expect(readInLocale(SITE, COLUMNS, stored, 'de-AT')).toEqual({
      values: { title: 'Hafen', body: 'Boats' },
      fallbacks: { title: 'de', body: 'en' },
    });
    // No chain: only its own values, and missing ones are missing, not fallbacks.
    expect(readInLocale(SITE, COLUMNS, stored, 'fr')).toEqual({ values: { title: null, body: null }, fallbacks: {} });
    expect(stored[missingColumnName('fr')]).toBe(JSON.stringify({ title: null, body: null }));
    expect(stored[missingColumnName('en')]).toBeNull();
  });

  it('gives back each locale’s own values, so a change of the default or a chain stores them afresh', () => {
    const own = { en: { title: 'Harbour', body: 'Boats' }, de: { title: 'Hafen', body: null } };
    const stored = storedFromOwn(SITE, COLUMNS, own);
    expect(ownValuesOf(SITE, COLUMNS, stored)).toEqual({
      en: { title: 'Harbour', body: 'Boats' },
      de: { title: 'Hafen', body: null },
      'de-AT': { title: null, body: null },
      fr: { title: null, body: null },
    });
    const germanFirst: LocalesDocument = {
      default: 'de',
      locales: [
        { code: 'de', label: 'Deutsch' },
        { code: 'en', label: 'English', fallback: ['de'] },
      ],
    };
    const moved = storedFromOwn(germanFirst, COLUMNS, ownValuesOf(SITE, COLUMNS, stored));
    expect(moved.title).toBe('Hafen');
    expect(moved.body).toBeNull();
    expect(readInLocale(germanFirst, COLUMNS, moved, 'en')).toEqual({
      values: { title: 'Harbour', body: 'Boats' },
      fallbacks: {},
    });
    expect(readInLocale(germanFirst, COLUMNS, moved, 'de').values).toEqual({ title: 'Hafen', body: null });
  });

  it('plans a read in one locale: its own columns only, found once per columns and locale', () => {
    const system = ['created_at', 'updated_at', 'created_by', 'updated_by'];
    const de = localeReadPlan(SITE, COLUMNS, 'de');
    const deTitle = localeColumnName('title', 'de');
    const deBody = localeColumnName('body', 'de');
    expect(de.sources).toEqual([deTitle, deBody, 'price']);
    expect(de.selected).toEqual(['id', deTitle, deBody, 'price', missingColumnName('de'), 'meta', ...system]);
    expect(localeReadPlan(SITE, COLUMNS, 'en').selected).toEqual([
      'id',
      'title',
      'body',
      'price',
      missingColumnName('en'),
      'meta',
      ...system,
    ]);
    expect(localeReadPlan(SITE, COLUMNS, 'de')).toBe(de);
    // Another default moves where each locale's values are: a plan of its own.
    const germanFirst: LocalesDocument = { ...SITE, default: 'de' };
    expect(localeReadPlan(germanFirst, COLUMNS, 'de').sources).toEqual(['title', 'body', 'price']);
    // Each locale column the table holds besides it is another locale's.
    const others = localeStorageColumns(SITE, COLUMNS).filter(({ name }) => !de.selected.includes(name));
    expect(others).toHaveLength(7);
  });
});
