import type { ContentRow, RelationValue } from '../../../common/api-contract.js';

const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** A relation's form value from a row: the related row's `{ id, title, slug }`, or null. */
export function relationFromRow(value: unknown): RelationValue | null {
  if (typeof value === 'string') return value === '' ? null : { id: value, title: null, slug: null };
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Partial<RelationValue>;
  if (typeof record.id !== 'string' || record.id === '') return null;
  return { id: record.id, title: textOrNull(record.title), slug: textOrNull(record.slug) };
}

/** The relation value of a picked row of the target type, shaped as the server reads it back. */
export function relationFromListRow(row: ContentRow): RelationValue {
  return { id: row.id, title: textOrNull(row.title), slug: textOrNull(row.slug) };
}

/** What a relation is called on screen: the related row's title, else its slug, else its id. */
export function relationText(value: RelationValue): string {
  return value.title?.trim() || value.slug || value.id;
}

/** A relation's write-body value: the related row's id, or null to clear it. */
export function relationToBody(value: unknown): string | null {
  return relationFromRow(value)?.id ?? null;
}
