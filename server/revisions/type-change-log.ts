import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import type { ColumnDescriptor, ContentTypeKind } from '../../common/api-contract.js';
import { timestampNow } from '../../common/datetime-syntax.js';
import type { TypeChange, TypeChangeDetail } from '../../common/revision-contract.js';
import { RevisionRepository, type TypeChangeRow } from '../db/repositories/revision-repository.js';
import type { QuireDatabase } from '../db/schema.js';

/** A content type as a change log compares it. */
export interface TypeShape {
  title: string;
  /** Left out: not compared (a collection). */
  kind?: ContentTypeKind;
  previewPath: string | null;
  columns: readonly (ColumnDescriptor & { from?: string })[];
}

/**
 * Records a content-type change in the change's own transaction (ContentTypeService calls it
 * beside its migration, so a change that fails records nothing): what changed, who, when.
 */
export async function recordTypeChange(
  trx: Kysely<QuireDatabase>,
  slug: string,
  action: TypeChangeRow['action'],
  detail: TypeChangeDetail,
  by: string | null,
): Promise<void> {
  await new RevisionRepository(trx).insertTypeChange({
    type_slug: slug,
    action,
    detail: JSON.stringify(detail),
    changed_by: by,
    changed_at: timestampNow(),
  });
}

/**
 * What a change does to a type: title and preview path from/to, columns added, dropped, renamed
 * (by `from`) and changed; members only where something changed. `before` null: a new type.
 */
export function typeChangeDetail(before: TypeShape | null, after: TypeShape): TypeChangeDetail {
  const detail: TypeChangeDetail = {};
  if (before?.title !== after.title) detail.title = { from: before?.title ?? null, to: after.title };
  if (before && (before.kind ?? 'collection') !== (after.kind ?? 'collection')) {
    detail.type = { from: before.kind ?? 'collection', to: after.kind ?? 'collection' };
  }
  if (before && before.previewPath !== after.previewPath) {
    detail.preview_path = { from: before.previewPath, to: after.previewPath };
  }
  const old = new Map((before?.columns ?? []).map((column) => [column.name, column]));
  const kept = new Set<string>();
  const added: string[] = [];
  const renamed: { from: string; to: string }[] = [];
  const changed: string[] = [];
  for (const { from, ...column } of after.columns) {
    const previous = old.get(from ?? column.name);
    if (!previous) {
      added.push(column.name);
      continue;
    }
    kept.add(previous.name);
    if (previous.name !== column.name) renamed.push({ from: previous.name, to: column.name });
    const { from: _from, ...unnamedPrevious } = { ...previous, name: column.name };
    if (!isDeepStrictEqual(unnamedPrevious, column)) changed.push(column.name);
  }
  const dropped = [...old.keys()].filter((name) => !kept.has(name));
  if (added.length > 0) detail.added = added;
  if (dropped.length > 0) detail.dropped = dropped;
  if (renamed.length > 0) detail.renamed = renamed;
  if (changed.length > 0) detail.changed = changed;
  return detail;
}

/** A stored change in the API's shape. */
export function typeChangeOf(row: TypeChangeRow): TypeChange {
  return {
    id: row.id,
    type: row.type_slug,
    action: row.action,
    detail: JSON.parse(row.detail) as TypeChangeDetail,
    by: row.changed_by,
    at: row.changed_at,
  };
}
