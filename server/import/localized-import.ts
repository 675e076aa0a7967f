import type { LocalesDocument } from '../../common/locale-contract.js';
import { findLocale } from '../../common/locale-rules.js';
import type { ContentType } from '../content/content-type.js';
import type { RowLocale } from '../content/row-format.js';
import { localizedColumnsOf } from '../locales/localized-values.js';
import type { ImportFormat } from './import-formats.js';

/**
 * Localized columns in import files. Each row is written as a `?locale=all` write is: every
 * localized field an object keyed by locale code (a partial map; locales left out hold no value).
 * A CSV file names a locale's value with a header `title@de` (`title` alone is the default
 * locale's; an empty cell gives none); a JSON row gives the object itself (`"title": {"en": "Harbour", "de": "Hafen"}`), or
 * a plain value as the default locale's, as a file written before the column was localized has it.
 */

/** How a type's rows are parsed from an import file: in every locale at once, or (no localized columns) as ever. */
export function importLocale(type: ContentType, document: LocalesDocument): RowLocale | undefined {
  return localizedColumnsOf(type.columns).length > 0 ? { document, requested: { kind: 'all' } } : undefined;
}

/** Where a CSV header names a locale: `title@de` -> title, de (null when it names none). */
function splitHeader(name: string): { column: string; locale: string } | null {
  const at = name.lastIndexOf('@');
  return at < 0 ? null : { column: name.slice(0, at), locale: name.slice(at + 1) };
}

/**
 * What is wrong with a CSV file's header for `type`, naming the header, or null: a locale suffix on
 * a column that is not localized (or that the type lacks), a locale the site does not list, or two
 * headers naming one locale's value of one column (`title` and `title@en` where en is the default).
 */
export function csvHeaderProblem(
  type: ContentType,
  document: LocalesDocument,
  names: readonly string[],
): string | null {
  const codes = document.locales.map((locale) => locale.code);
  const seen = new Map<string, string>();
  for (const name of names) {
    const split = splitHeader(name);
    const column = type.columnsByName.get(split ? split.column : name);
    if (!split) {
      if (column?.localized === true) seen.set(`${name}@${document.default}`, name);
      continue;
    }
    if (!column) return `${name} names a locale of ${split.column}, which ${type.table} does not have`;
    if (column.localized !== true) {
      return `${name} names a locale of ${split.column}, which is shared by every locale (not localized): name it ${split.column}`;
    }
    const locale = findLocale(document, split.locale);
    if (!locale) return `${name}: ${split.locale} is not one of the site's locales (${codes.join(', ')})`;
    const key = `${split.column}@${locale.code}`;
    const other = seen.get(key);
    if (other !== undefined) return `${name} and ${other} name the same value (${key})`;
    seen.set(key, name);
  }
  return null;
}

/**
 * One import record's fields as a `?locale=all` write takes them (see above). Fields of columns
 * that are not localized, and unknown ones (which the write refuses by name), pass as they are.
 * CSV headers are checked first (`csvHeaderProblem`).
 */
export function localizedImportFields(
  type: ContentType,
  document: LocalesDocument,
  fields: Record<string, unknown>,
  format: ImportFormat,
): Record<string, unknown> {
  // No prototype: a field may be called `__proto__`.
  const out: Record<string, unknown> = Object.create(null);
  const byLocale = (column: string): Record<string, unknown> => {
    const current = out[column];
    if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
      return current as Record<string, unknown>;
    }
    const values: Record<string, unknown> = {};
    out[column] = values;
    return values;
  };
  for (const [name, value] of Object.entries(fields)) {
    const split = format === 'csv' ? splitHeader(name) : null;
    const column = type.columnsByName.get(split ? split.column : name);
    if (column?.localized !== true) {
      out[name] = value;
      continue;
    }
    if (!split) {
      if (format === 'json' && isPlainObject(value)) out[name] = value;
      else byLocale(column.name)[document.default] = value;
      continue;
    }
    const code = findLocale(document, split.locale)?.code ?? split.locale;
    // An empty cell gives no value, as a column left out would: a slug is made there, not cleared.
    if (value !== '' || code === document.default) byLocale(column.name)[code] = value;
  }
  return out;
}

function isPlainObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
