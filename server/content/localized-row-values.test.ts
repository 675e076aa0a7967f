import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { localeColumnName, missingColumnName } from '../db/queries/internal-names.js';
import { contentTypeFromRecord } from './content-type.js';
import { formatRow } from './row-format.js';
import { parseRowInput } from './row-input.js';
import { localizedChanges, localizedStored } from './stored-row.js';

/**
 * A row's localized values between a write body and storage: parsed per locale, stored for every
 * locale (each resolved along its chain), told apart per locale, and formatted back in a locale.
 */

const DOCUMENT: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'fr', label: 'Français' },
  ],
};

const COLUMNS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'price', label: 'Price', type: 'number', required: false },
];

const TYPE = contentTypeFromRecord({
  id: 't',
  slug: 'walks',
  table_name: 'walks',
  title: 'Walks',
  status: 'published',
  type: 'collection',
  custom: 1,
  columns: JSON.stringify(COLUMNS),
  preview_path: null,
  position: 0,
  flat_meta: 0,
  created_at: '2026-01-01 00:00:00.000000',
  updated_at: '2026-01-01 00:00:00.000000',
});

const ALL = { document: DOCUMENT, requested: { kind: 'all' } } as const;
const inLocale = (code: string) => ({ document: DOCUMENT, requested: { kind: 'one', code } }) as const;

describe('localized row values', () => {
  it('parse a write in another locale apart from the default locale and the shared fields', () => {
    const input = parseRowInput(TYPE, { title: 'Dünen', price: 3 }, 'update', new Set(), inLocale('de'));
    expect([...input.values]).toEqual([['price', 3]]);
    expect([...input.localized].map(([code, values]) => [code, [...values]])).toEqual([['de', [['title', 'Dünen']]]]);
  });

  it('store every locale from own values, resolved along each chain, and tell which changed', () => {
    const input = parseRowInput(TYPE, { title: { en: 'Dunes', fr: 'Dunes (fr)' } }, 'create', new Set(), ALL);
    const created = { id: 'r', title: 'Dunes', price: null };
    const stored = { ...created, ...localizedStored(TYPE, DOCUMENT, null, created, input.localized) };
    expect(stored).toMatchObject({
      title: 'Dunes',
      [localeColumnName('title', 'de')]: 'Dunes',
      [localeColumnName('title', 'fr')]: 'Dunes (fr)',
      [missingColumnName('en')]: null,
      [missingColumnName('de')]: JSON.stringify({ title: 'en' }),
      [missingColumnName('fr')]: null,
    });
    expect(localizedChanges(TYPE, DOCUMENT, null, stored)).toEqual({ en: ['title'], fr: ['title'] });

    const de = parseRowInput(TYPE, { title: 'Dünen' }, 'update', new Set(), inLocale('de'));
    const after = { ...stored, ...localizedStored(TYPE, DOCUMENT, stored, {}, de.localized) };
    expect(localizedChanges(TYPE, DOCUMENT, stored, after)).toEqual({ de: ['title'] });
    expect(formatRow(TYPE, after, undefined, inLocale('de'))).toMatchObject({
      title: 'Dünen',
      locale: 'de',
      fallbacks: {},
    });
    expect(formatRow(TYPE, after, undefined, ALL)).toMatchObject({
      title: { en: 'Dunes', de: 'Dünen', fr: 'Dunes (fr)' },
      locale: 'all',
    });
    // Without a locale asked for, and for a write that changes no localized field, nothing is added.
    expect(formatRow(TYPE, after)).not.toHaveProperty('locale');
    expect(localizedStored(TYPE, DOCUMENT, after, { price: '4' }, new Map())).toEqual({});
  });
});
