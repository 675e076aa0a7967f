import type { ColumnValue } from '../../common/api-contract.js';
import { SYSTEM_FIELDS } from '../../common/api-contract.js';
import { shownColumns } from '../../common/field-conditions.js';
import { type FieldProblems, hasProblems, noProblems } from '../../common/field-problems.js';
import { findLocale } from '../../common/locale-rules.js';
import { columnForFieldName, flatMetaName, META_KEYS } from '../../common/row-fields.js';
import { AppError, validationError } from '../errors/app-error.js';
import { reportProblems } from '../fields/field.js';
import { fieldFor } from '../fields/field-registry.js';
import type { ContentType } from './content-type.js';
import { hiddenRelationRefused } from './relations.js';
import type { RowLocale } from './row-format.js';
import { type MetaPatch, readMetaPatch } from './seo-meta.js';

/** Set by the server (system fields, a row's pending schedule): sent back in a write body they are ignored. */
const IGNORED: ReadonlySet<string> = new Set([...SYSTEM_FIELDS, 'schedule']);
/** A row read's images' alt text, pixel size and focal point, by path (see AssetService.decorate). */
export const ROW_MEDIA_MEMBER = 'media';
/** A localized type's row read carries the locale it was read in and where its fallbacks came from. */
const READ_LOCALE_MEMBERS: ReadonlySet<string> = new Set(['locale', 'fallbacks']);
const META_FIELDS: ReadonlySet<string> = new Set(['meta', ...META_KEYS.map(flatMetaName)]);

/** A write body checked against a content type's columns. */
export interface RowInput {
  /** Parsed values of the columns the body names (null = cleared); of localized columns, the default locale's. */
  values: Map<string, ColumnValue>;
  /** Localized columns' values in the other locales the body names: locale -> column -> value (null = cleared). */
  localized: Map<string, Map<string, ColumnValue>>;
  /** What the body says about SEO meta, if anything. */
  meta: MetaPatch | undefined;
}

/**
 * Parses a write body against a type's columns: each value through its column's field type,
 * unknown names refused, system fields ignored. `create` also requires every required column
 * shown for the values written (a slug may be left out: it is generated from its parent). Throws
 * one validation error naming every bad field, so a failed write changes nothing. Relations in `hidden` (the writer may not
 * read their target type, see `hiddenRelations`) are left as they are when sent empty, as the
 * writer read them, and refused (403) when sent with any value.
 *
 * Localized columns are written in `locale` (absent: the default locale): in another locale they
 * go to `localized`; with `all` each is an object keyed by locale code (a partial map leaves the
 * other locales as they are). Only the default locale's values count as given for `required`, so
 * other locales may be left untranslated.
 */
export function parseRowInput(
  type: ContentType,
  body: unknown,
  mode: 'create' | 'update',
  hidden: ReadonlySet<string> = new Set(),
  locale?: RowLocale,
): RowInput {
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('bad_request', 'The request body must be an object of field values');
  }
  const fields = body as Record<string, unknown>;
  const problems = noProblems();
  const values = new Map<string, ColumnValue>();
  const localized = new Map<string, Map<string, ColumnValue>>();
  const readsInLocales = locale !== undefined && type.columns.some((column) => column.localized === true);

  for (const [rawName, raw] of Object.entries(fields)) {
    if (IGNORED.has(rawName) || META_FIELDS.has(rawName)) continue;
    // What a row read carries about its images (the media library's), unless the type has a `media` column.
    if (rawName === ROW_MEDIA_MEMBER && !type.columnsByName.has(ROW_MEDIA_MEMBER)) continue;
    // What a read in a locale carries besides its fields, so a read sent back is a write.
    if (READ_LOCALE_MEMBERS.has(rawName) && readsInLocales && !type.columnsByName.has(rawName)) continue;
    const name = columnForFieldName(rawName, (column) => type.columnsByName.has(column));
    const column = type.columnsByName.get(name);
    if (!column) {
      problems[rawName] = { code: 'not_a_field', table: type.table };
      continue;
    }
    if (values.has(name)) {
      problems[rawName] = { code: 'same_field', field: name };
      continue;
    }
    if (column.localized === true && locale) {
      const perLocale = localeValuesOf(locale, raw, rawName, problems);
      for (const [code, value] of perLocale) {
        const parsed = fieldFor(column.type).parse(value, column);
        const at = code === locale.document.default ? rawName : `${rawName}@${code}`;
        if (!parsed.ok) reportProblems(problems, at, parsed);
        else if (code === locale.document.default) values.set(name, parsed.value);
        else {
          const inLocale = localized.get(code) ?? new Map<string, ColumnValue>();
          inLocale.set(name, parsed.value);
          localized.set(code, inLocale);
        }
      }
      continue;
    }
    const parsed = fieldFor(column.type).parse(raw, column);
    if (hidden.has(name)) {
      if (parsed.ok && parsed.value === null) continue;
      throw hiddenRelationRefused(name);
    }
    if (!parsed.ok) reportProblems(problems, rawName, parsed);
    else values.set(name, parsed.value);
  }

  const shown = shownColumns(type.columns, (column) => values.get(column) ?? null);
  for (const column of type.columns) {
    if (!column.required || column.type === 'slug' || problems[column.name]) continue;
    // A column shown on a condition is required only while shown: on create for the values written;
    // on update against the stored row, in the write's transaction (requireShownColumns).
    if (column.when && (mode === 'update' || !shown.has(column.name))) continue;
    const given = values.has(column.name);
    const value = values.get(column.name);
    if ((mode === 'create' && (!given || value === null)) || (mode === 'update' && given && value === null)) {
      problems[column.name] = { code: 'required' };
    }
  }

  const meta = readMetaPatch(fields, problems);
  if (hasProblems(problems)) throw validationError(problems);
  return { values, localized, meta };
}

/**
 * A localized field's sent value per locale code: the one locale written in, or with `all` the
 * object's members by canonical code. A non-object, or a member naming no locale of the site, is
 * a problem of the field (and gives nothing).
 */
function localeValuesOf(
  locale: RowLocale,
  raw: unknown,
  rawName: string,
  problems: FieldProblems,
): [string, unknown][] {
  const { document, requested } = locale;
  if (requested.kind === 'one') return [[requested.code, raw]];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems[rawName] = { code: 'not_an_object' };
    return [];
  }
  const known = document.locales.map((listed) => listed.code);
  const found: [string, unknown][] = [];
  for (const [key, value] of Object.entries(raw)) {
    const code = findLocale(document, key)?.code;
    if (code === undefined || found.some(([seen]) => seen === code)) {
      problems[`${rawName}@${key}`] = { code: 'unknown_locale', locales: known };
      return [];
    }
    found.push([code, value]);
  }
  return found;
}
