import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { postgresEngine } from '../postgres/postgres-engine.js';
import { sqliteEngine } from '../sqlite/sqlite-engine.js';
import { indexesFor } from './content-index-plan.js';
import { localeColumnName, orderKeyColumnName } from './internal-names.js';
import { orderKeysOf } from './order-key-columns.js';

/** The index plan of a table with localized columns: each locale's stored column planned as its column is. */

const LOCALES: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'fr', label: 'Français', fallback: ['de', 'en'] },
  ],
};

const COLUMNS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title', localized: true },
  { name: 'body', label: 'Body', type: 'markdown', required: false, localized: true },
  { name: 'status', label: 'Status', type: 'select', required: true, options: [{ id: 'draft', text: 'Draft' }] },
];
const UNLOCALIZED = COLUMNS.map(({ localized: _localized, ...column }) => column);

const names = (plans: { columns: string[]; unique: boolean }[]) =>
  plans.map((plan) => `${plan.unique ? 'unique ' : ''}${plan.columns.join(',')}`);

describe('the index plan of localized columns', () => {
  it('plans a unique slug index and the order indexes for each locale column, as for the column (SQLite)', () => {
    const plan = names(indexesFor(sqliteEngine, 'pages', COLUMNS, LOCALES));
    for (const locale of ['de', 'fr']) {
      const title = localeColumnName('title', locale);
      const slug = localeColumnName('slug', locale);
      expect(plan).toContain(`unique ${slug}`);
      expect(plan).toContain(`${title},id`);
      expect(plan).toContain(`${slug},id`);
      expect(plan).toContain(`status,${title},id`);
      expect(plan).toContain(`status,${slug},id`);
      // Bodies are not indexed in any locale.
      expect(plan.some((one) => one.includes(localeColumnName('body', locale)))).toBe(false);
    }
    // The default locale's values stay in the columns themselves, planned as before.
    const unlocalized = names(indexesFor(sqliteEngine, 'pages', UNLOCALIZED, LOCALES));
    expect(unlocalized.every((one) => plan.includes(one))).toBe(true);
    expect(plan.length - unlocalized.length).toBe(2 * 5);
  });

  it('indexes a locale column of a text column through its own order key column (PostgreSQL)', () => {
    const title = localeColumnName('title', 'de');
    expect(orderKeysOf(postgresEngine, COLUMNS, LOCALES)).toContainEqual({
      column: title,
      key: orderKeyColumnName(title),
    });
    expect(orderKeysOf(sqliteEngine, COLUMNS, LOCALES)).toEqual([]);
    const plan = indexesFor(postgresEngine, 'pages', COLUMNS, LOCALES);
    expect(plan.find((one) => one.columns[0] === orderKeyColumnName(title))).toMatchObject({
      columns: [orderKeyColumnName(title), 'id'],
      nullsFirst: [orderKeyColumnName(title)],
    });
  });

  it('plans nothing more without other locales or without localized columns', () => {
    const one: LocalesDocument = { default: 'en', locales: [{ code: 'en', label: 'English' }] };
    expect(indexesFor(sqliteEngine, 'pages', COLUMNS, one)).toEqual(indexesFor(sqliteEngine, 'pages', UNLOCALIZED));
    expect(indexesFor(postgresEngine, 'pages', UNLOCALIZED, LOCALES)).toEqual(
      indexesFor(postgresEngine, 'pages', UNLOCALIZED),
    );
    expect(orderKeysOf(postgresEngine, COLUMNS)).toEqual(orderKeysOf(postgresEngine, UNLOCALIZED));
  });

  it('keeps every planned name distinct and within PostgreSQL identifiers', () => {
    const plan = indexesFor(postgresEngine, 'pages', COLUMNS, LOCALES);
    expect(new Set(plan.map((one) => one.name)).size).toBe(plan.length);
    for (const one of plan) expect(Buffer.byteLength(one.name)).toBeLessThanOrEqual(63);
  });
});
