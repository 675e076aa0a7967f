import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { indexedColumnsOfTable, indexedSearchColumnsOf } from '../db/queries/search-text-columns.js';
import { LOCALIZED_TITLE, localesWith } from '../test-support/localized-fixtures.js';
import { searchColumnsInLocale, searchColumnsOfEveryLocale } from './locale-search-columns.js';

const DOCUMENT = localesWith({ de: ['en'], fr: ['de', 'en'] });

const COLUMNS: ColumnDescriptor[] = [
  LOCALIZED_TITLE,
  { name: 'slug', label: 'Slug', type: 'slug', required: false, parent: 'title' },
  { name: 'body', label: 'Body', type: 'richtext', required: false },
];

describe('the columns a search covers per locale', () => {
  it("maps each localized search column to the locale's column, the default's and shared ones as they are", () => {
    const search = indexedSearchColumnsOf(COLUMNS);
    expect(search).toEqual(['title', 'slug', 'quire_text:body']);
    expect(searchColumnsInLocale(DOCUMENT, COLUMNS, search, 'en')).toEqual(search);
    expect(searchColumnsInLocale(DOCUMENT, COLUMNS, search, 'de')).toEqual([
      'quire_loc:de:title',
      'slug',
      'quire_text:body',
    ]);
  });

  it("lists every locale's columns once, the default's first, as the table's index follows them", () => {
    const every = ['title', 'slug', 'quire_text:body', 'quire_loc:de:title', 'quire_loc:fr:title'];
    expect(searchColumnsOfEveryLocale(DOCUMENT, COLUMNS, indexedSearchColumnsOf(COLUMNS))).toEqual(every);
    expect(indexedColumnsOfTable(COLUMNS, DOCUMENT)).toEqual(every);
    const unlocalized = COLUMNS.map(({ localized: _, ...column }) => column);
    expect(indexedColumnsOfTable(unlocalized, DOCUMENT)).toEqual(['title', 'slug', 'quire_text:body']);
  });
});
