import type { ColumnValue } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { withSearchTexts } from '../db/queries/search-text-columns.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { fieldFor } from '../fields/field-registry.js';
import { localizedColumnsOf, type OwnValues, ownValuesOf, storedFromOwn } from '../locales/localized-values.js';
import type { ContentType } from './content-type.js';
import type { RowInput } from './row-input.js';
import { applyMetaPatch } from './seo-meta.js';

/**
 * The stored form of a new row: id, each column's stored value (and the search text of its body
 * columns), meta as JSON, system fields. Shared
 * by `RowService.create` and the bulk import, so both store a row the same way.
 */
export function newStoredRow(
  type: ContentType,
  id: string,
  values: ReadonlyMap<string, ColumnValue>,
  input: RowInput,
  now: string,
  editorName: string | null,
): StoredRow {
  const meta = input.meta === undefined ? null : applyMetaPatch(null, input.meta);
  const stored = Object.fromEntries(
    type.columns.map((column) => [column.name, toStored(type, column.name, values.get(column.name))]),
  );
  return {
    id,
    ...withSearchTexts(type.columns, stored),
    meta: meta === null ? null : JSON.stringify(meta),
    created_at: now,
    updated_at: now,
    created_by: editorName,
    updated_by: editorName,
  };
}

/** What the SQL column of `name` holds for a parsed value (the column's field decides). */
export function toStored(type: ContentType, name: string, value: ColumnValue | undefined): unknown {
  const column = type.columnsByName.get(name);
  if (value === undefined || value === null || !column) return null;
  return fieldFor(column.type).toStored(value);
}

/**
 * The stored columns of a row's localized values once a write has set `changes` (stored values;
 * a localized column among them is the default locale's) and `localized` (parsed values in other
 * locales) over `current` (null: a new row): every locale's own values as `current` holds them,
 * changed, and resolved again along the chains (see storedFromOwn). Nothing when the type has no
 * localized columns or the write changes none of them.
 */
export function localizedStored(
  type: ContentType,
  document: LocalesDocument,
  current: StoredRow | null,
  changes: StoredRow,
  localized: ReadonlyMap<string, ReadonlyMap<string, ColumnValue>>,
): StoredRow {
  const columns = localizedColumnsOf(type.columns);
  const touched = localized.size > 0 || columns.some((column) => Object.hasOwn(changes, column.name));
  if (columns.length === 0 || !touched) return {};
  const own: OwnValues = current === null ? {} : ownValuesOf(document, type.columns, current);
  const inDefault = { ...own[document.default] };
  for (const column of columns) {
    if (Object.hasOwn(changes, column.name)) inDefault[column.name] = changes[column.name];
  }
  own[document.default] = inDefault;
  for (const [code, values] of localized) {
    const inLocale = { ...own[code] };
    for (const [name, value] of values) inLocale[name] = toStored(type, name, value);
    own[code] = inLocale;
  }
  return storedFromOwn(document, type.columns, own);
}

/**
 * Which locales' own values of which localized columns differ between two stored forms of a row
 * (`before` null: a new row, whose set values count): locale -> columns, empty when none or the
 * type has no localized columns.
 */
export function localizedChanges(
  type: ContentType,
  document: LocalesDocument,
  before: StoredRow | null,
  after: StoredRow | null,
): Record<string, string[]> {
  const columns = localizedColumnsOf(type.columns);
  if (columns.length === 0 || after === null) return {};
  const next = ownValuesOf(document, type.columns, after);
  const previous = before === null ? {} : ownValuesOf(document, type.columns, before);
  const changed: Record<string, string[]> = {};
  for (const { code } of document.locales) {
    const names = columns
      .map((column) => column.name)
      .filter((name) => (next[code]?.[name] ?? null) !== (previous[code]?.[name] ?? null));
    if (names.length > 0) changed[code] = names;
  }
  return changed;
}
