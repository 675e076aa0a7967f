import type { ContentRow } from '../contract/api-contract.js';
import type { StoredRow } from '../db/content-repository.js';
import { fieldFor } from '../fields/field-registry.js';
import type { ContentType } from './content-type.js';
import { parseStoredMeta } from './seo-meta.js';

/** Turns a stored row into its JSON form: id, the columns in descriptor order, meta, system fields. */
export function formatRow(type: ContentType, stored: StoredRow): ContentRow {
  const row: Record<string, unknown> = { id: String(stored.id) };
  for (const column of type.columns) {
    row[column.name] = fieldFor(column.type).serialize(stored[column.name], column);
  }
  row.meta = parseStoredMeta(stored.meta);
  row.created_at = stored.created_at;
  row.updated_at = stored.updated_at;
  row.created_by = stored.created_by ?? null;
  row.updated_by = stored.updated_by ?? null;
  return row as ContentRow;
}
