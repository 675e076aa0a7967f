import type { ContentRow } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { fieldFor } from '../fields/field-registry.js';
import type { RequestLocale } from '../locales/locale-parameter.js';
import { fallbacksOf, type LocaleReadPlan, localeReadPlan, ownValuesOf } from '../locales/localized-values.js';
import type { ContentType } from './content-type.js';
import { pointerKey, type RelationLookup } from './relations.js';
import { parseStoredMeta } from './seo-meta.js';

/** The locale a row is read or written in, with the site's locales it is one of. */
export interface RowLocale {
  document: LocalesDocument;
  requested: RequestLocale;
}

/**
 * Turns a stored row into its JSON form: id, the columns in descriptor order, meta (plus the flat
 * meta_title, meta_description, meta_keywords for article-like types), system fields. Relation
 * columns read as their target row's `{ id, title, slug }` from `relations`, or null.
 *
 * A type with localized columns reads them in `locale` (absent: the default locale): each such
 * column's value after fallback, and `locale` and `fallbacks` (which columns came from which other
 * locale) at the end; with `all`, each localized column as an object of every locale's own value
 * (null: none). A type without localized columns reads as it always has, whatever the locale.
 */
export function formatRow(
  type: ContentType,
  stored: StoredRow,
  relations?: RelationLookup,
  locale?: RowLocale,
): ContentRow {
  const localized = locale ? type.localizedColumns : [];
  if (!locale || localized.length === 0) return formatStored(type, stored, relations, null);
  const { document, requested } = locale;
  if (requested.kind === 'one') {
    const plan = localeReadPlan(document, type.columns, requested.code);
    const row = formatStored(type, stored, relations, plan) as Record<string, unknown>;
    row.locale = requested.code;
    row.fallbacks = fallbacksOf(type.columns, stored, plan);
    return row as ContentRow;
  }
  const row = formatStored(type, stored, relations, null) as Record<string, unknown>;
  const own = ownValuesOf(document, type.columns, stored);
  for (const column of localized) {
    const field = fieldFor(column.type);
    const values: Record<string, unknown> = {};
    for (const { code } of document.locales) {
      const value = own[code]?.[column.name] ?? null;
      values[code] = value === null ? null : field.serialize(value, column);
    }
    row[column.name] = values;
  }
  row.locale = 'all';
  return row as ContentRow;
}

/**
 * The stored columns a read of `type` in `locale` selects (see LocaleReadPlan), or null for every
 * column: a type without localized columns, or a read in every locale.
 */
export function selectedColumns(type: ContentType, locale: RowLocale): readonly string[] | null {
  const { document, requested } = locale;
  if (type.localizedColumns.length === 0 || requested.kind !== 'one') return null;
  return localeReadPlan(document, type.columns, requested.code).selected;
}

/**
 * A stored row's JSON form with each column read from the column of its own name, or with `plan`
 * from its stored column in the plan's locale (null there: none in any locale).
 */
function formatStored(
  type: ContentType,
  stored: StoredRow,
  relations: RelationLookup | undefined,
  plan: LocaleReadPlan | null,
): ContentRow {
  const row: Record<string, unknown> = { id: String(stored.id) };
  const { columns } = type;
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i];
    const value = plan && column.localized === true ? (stored[plan.sources[i]] ?? null) : stored[column.name];
    if (column.type === 'relation' && relations) {
      row[column.name] = typeof value === 'string' ? (relations.get(column.name)?.get(value) ?? null) : null;
    } else {
      const field = fieldFor(column.type);
      const read = field.serialize(value, column);
      // Relations inside the value (blocks) read like relation columns: resolved, or null unseen.
      const inner = relations?.get(column.name);
      row[column.name] =
        field.resolvePointers && inner
          ? field.resolvePointers(read, column, ({ target, id }) => inner.get(pointerKey(target, id)) ?? null)
          : read;
    }
  }
  const meta = parseStoredMeta(stored.meta);
  row.meta = meta;
  if (type.flatMeta) {
    row.meta_title = meta?.title || null;
    row.meta_description = meta?.description || null;
    row.meta_keywords = meta?.keywords || null;
  }
  row.created_at = stored.created_at;
  row.updated_at = stored.updated_at;
  row.created_by = stored.created_by ?? null;
  row.updated_by = stored.updated_by ?? null;
  return row as ContentRow;
}
