import type { ContentRow } from '../../common/api-contract.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { fieldFor } from '../fields/field-registry.js';
import type { ContentType } from './content-type.js';
import { pointerKey, type RelationLookup } from './relations.js';
import { parseStoredMeta } from './seo-meta.js';

/**
 * Turns a stored row into its JSON form: id, the columns in descriptor order, meta (plus the flat
 * meta_title, meta_description, meta_keywords for article-like types), system fields. Relation
 * columns read as their target row's `{ id, title, slug }` from `relations`, or null.
 */
export function formatRow(type: ContentType, stored: StoredRow, relations?: RelationLookup): ContentRow {
  const row: Record<string, unknown> = { id: String(stored.id) };
  for (const column of type.columns) {
    const value = stored[column.name];
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
