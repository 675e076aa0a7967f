import type { ColumnValue } from '../../common/api-contract.js';
import { withSearchTexts } from '../db/queries/search-text-columns.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { fieldFor } from '../fields/field-registry.js';
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
