import { type ColumnDescriptor, SYSTEM_FIELDS } from '../../common/api-contract.js';
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
  return typeof text === 'string' && text !== '' ? parsedMissing(text) : {};
}

/** A missing column's JSON as an object (empty when it is not one). */
function parsedMissing(text: string): Record<string, string | null> {
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

/**
 * How a read in one locale finds a type's values, worked out once per type and locale
 * (`localeReadPlan`): the stored columns it selects and the one each column's value is read from.
 */
export interface LocaleReadPlan {
  /**
   * What a row read in the locale is made of, to select instead of every column: the id, each
   * column's stored column in the locale, the locale's missing column, meta and the system fields.
   * Other locales' columns and missing columns are left out, which is most of a localized table.
   */
  selected: readonly string[];
  /** Per column of the type, in order, the stored column its value is read from in the locale. */
  sources: readonly string[];
  /** The stored column saying which localized columns the locale holds no value of its own for. */
  missing: string;
}

/**
 * Plans by the columns array (the registry makes a new one on each load, so a changed type never
 * meets an old plan), then by locale and default locale: what the plan depends on besides the columns.
 */
const readPlans = new WeakMap<readonly ColumnDescriptor[], Map<string, LocaleReadPlan>>();

/** The plan of reads of `columns` in `locale` under `document` (see LocaleReadPlan), made once and kept. */
export function localeReadPlan(
  document: LocalesDocument,
  columns: readonly ColumnDescriptor[],
  locale: string,
): LocaleReadPlan {
  let byLocale = readPlans.get(columns);
  if (!byLocale) {
    byLocale = new Map();
    readPlans.set(columns, byLocale);
  }
  const key = `${locale}\u0000${document.default}`;
  let plan = byLocale.get(key);
  if (!plan) {
    const sources = columns.map((column) => valueColumnIn(document, column, locale));
    const missing = missingColumnName(locale);
    const [id, ...system] = SYSTEM_FIELDS;
    plan = { selected: [id, ...sources, missing, 'meta', ...system], sources, missing };
    byLocale.set(key, plan);
  }
  return plan;
}

/**
 * The localized columns of a stored row that came from another locale in a read planned by
 * `plan`, with that locale (empty when none): its missing column, parsed only when it names any.
 */
export function fallbacksOf(
  columns: readonly ColumnDescriptor[],
  stored: Record<string, unknown>,
  plan: LocaleReadPlan,
): Record<string, string> {
  const fallbacks: Record<string, string> = {};
  const text = stored[plan.missing];
  if (typeof text !== 'string' || text === '') return fallbacks;
  const missing = parsedMissing(text);
  for (const column of columns) {
    const from = column.localized === true ? missing[column.name] : undefined;
    if (typeof from === 'string') fallbacks[column.name] = from;
  }
  return fallbacks;
}

/** A stored row's localized values as a read in `locale` answers them, with where each fallback came from. */
export function readInLocale(
  document: LocalesDocument,
  columns: readonly ColumnDescriptor[],
  stored: Record<string, unknown>,
  locale: string,
): LocaleRead {
  const plan = localeReadPlan(document, columns, locale);
  const values: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    if (column.localized === true) values[column.name] = stored[plan.sources[i]] ?? null;
  });
  return { values, fallbacks: fallbacksOf(columns, stored, plan) };
}
