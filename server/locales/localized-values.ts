import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { resolutionOrder } from '../../common/locale-rules.js';
import { localeColumnName, missingColumnName } from '../db/queries/internal-names.js';

/**
 * How a row's localized values are stored, and read back in a locale. A content table keeps, for
 * each localized column `c` (`"localized": true`):
 *
 * - `c` itself: the default locale's value, so a site with one locale, and every read in the
 *   default locale, is a read of the table's own columns as before;
 * - per other locale `L`, `localeColumnName(c, L)`: the value a read in `L` answers, already
 *   resolved along `L`'s fallback chain, of `c`'s own SQL type. Filters, order, search, slugs and
 *   their indexes in `L` work on it as they work on `c` in the default locale;
 * - per locale `L` (the default too), `missingColumnName(L)`: which localized columns `L` holds no
 *   value of its own for, as JSON `{"title":"en","body":null}` (where each read comes from
 *   instead, null when from nowhere), or null when none: `filter=missing:L` and a row's `fallbacks`.
 *
 * A locale's own values are what the stored row says less what it says came from elsewhere, so a
 * change of a value, of a chain or of the default is: take every locale's own values
 * (`ownValuesOf`), change them, and store them again (`storedFromOwn`), which resolves afresh.
 */

/** Every locale's own values of a row's localized columns: locale -> column -> stored value (null: none). */
export type OwnValues = Record<string, Record<string, unknown>>;

/** What a row read in one locale answers for its localized columns. */
export interface LocaleRead {
  /** Each localized column's stored value in the locale, after fallback (null: none anywhere). */
  values: Record<string, unknown>;
  /** The columns whose value came from another locale, with that locale (empty when none). */
  fallbacks: Record<string, string>;
}

/** The localized columns of a type's columns, in order. */
export function localizedColumnsOf(columns: readonly ColumnDescriptor[]): ColumnDescriptor[] {
  return columns.filter((column) => column.localized === true);
}

/** The locales other than the default, in the document's order. */
export function otherLocales(document: LocalesDocument): string[] {
  return document.locales.map((locale) => locale.code).filter((code) => code !== document.default);
}

/**
 * The stored columns a content table with `columns` has besides them under `document`, each with
 * the column whose SQL type it takes (null: text, the missing columns): none without localized columns.
 */
export function localeStorageColumns(
  document: LocalesDocument,
  columns: readonly ColumnDescriptor[],
): { name: string; like: ColumnDescriptor | null }[] {
  const localized = localizedColumnsOf(columns);
  if (localized.length === 0) return [];
  const stored: { name: string; like: ColumnDescriptor | null }[] = [];
  for (const locale of otherLocales(document)) {
    for (const column of localized) stored.push({ name: localeColumnName(column.name, locale), like: column });
  }
  for (const locale of document.locales) stored.push({ name: missingColumnName(locale.code), like: null });
  return stored;
}

/** The stored column a read, filter or order in `locale` finds localized column `column`'s value in. */
export function valueColumnIn(document: LocalesDocument, column: ColumnDescriptor, locale: string): string {
  return column.localized === true && locale !== document.default ? localeColumnName(column.name, locale) : column.name;
}

/** Whether a stored value holds nothing: null, a blank text, an empty JSON list (stored tags). */
export function isEmptyStored(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'string') return false;
  const text = value.trim();
  return text === '' || text === '[]';
}

/** Where each localized column of `locale` comes from, as its missing column records it. */
function missingOf(stored: Record<string, unknown>, locale: string): Record<string, string | null> {
  const text = stored[missingColumnName(locale)];
  if (typeof text !== 'string' || text === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, string | null>)
      : {};
  } catch {
    return {};
  }
}

/**
 * Every locale's own values of a stored row's localized columns, as `document` stored them. A
 * locale whose columns the row lacks (not stored yet) holds none.
 */
export function ownValuesOf(
  document: LocalesDocument,
  columns: readonly ColumnDescriptor[],
  stored: Record<string, unknown>,
): OwnValues {
  const own: OwnValues = {};
  const localized = localizedColumnsOf(columns);
  for (const { code } of document.locales) {
    const missing = missingOf(stored, code);
    const values: Record<string, unknown> = {};
    for (const column of localized) {
      const name = code === document.default ? column.name : localeColumnName(column.name, code);
      const value = Object.hasOwn(missing, column.name) ? null : (stored[name] ?? null);
      values[column.name] = isEmptyStored(value) ? null : value;
    }
    own[code] = values;
  }
  return own;
}

/**
 * The stored columns of a row's localized values under `document` (each localized column, its
 * locale columns and the missing columns), resolved from every locale's own values `own` (a
 * locale absent there holds none).
 */
export function storedFromOwn(
  document: LocalesDocument,
  columns: readonly ColumnDescriptor[],
  own: OwnValues,
): Record<string, unknown> {
  const localized = localizedColumnsOf(columns);
  const stored: Record<string, unknown> = {};
  if (localized.length === 0) return stored;
  for (const { code } of document.locales) {
    const order = resolutionOrder(document, code);
    const missing: Record<string, string | null> = {};
    for (const column of localized) {
      let value: unknown = null;
      let from: string | null = null;
      for (const source of order) {
        const candidate = own[source]?.[column.name];
        if (!isEmptyStored(candidate)) {
          value = candidate;
          from = source;
          break;
        }
      }
      if (from !== code) missing[column.name] = from;
      stored[code === document.default ? column.name : localeColumnName(column.name, code)] = value;
    }
    stored[missingColumnName(code)] = Object.keys(missing).length === 0 ? null : JSON.stringify(missing);
  }
  return stored;
}

/** A stored row's localized values as a read in `locale` answers them, with where each fallback came from. */
export function readInLocale(
  document: LocalesDocument,
  columns: readonly ColumnDescriptor[],
  stored: Record<string, unknown>,
  locale: string,
): LocaleRead {
  const missing = missingOf(stored, locale);
  const values: Record<string, unknown> = {};
  const fallbacks: Record<string, string> = {};
  for (const column of localizedColumnsOf(columns)) {
    values[column.name] = stored[valueColumnIn(document, column, locale)] ?? null;
    const from = missing[column.name];
    if (typeof from === 'string') fallbacks[column.name] = from;
  }
  return { values, fallbacks };
}
