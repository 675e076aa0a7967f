import { typeAllowed } from '../../common/access-rules.js';
import type { RelationValue, RowReference } from '../../common/api-contract.js';
import { hasProblems, noProblems } from '../../common/field-problems.js';
import type { ContentRepository, StoredRow } from '../db/content-repository.js';
import { AppError, validationError } from '../errors/app-error.js';
import type { ContentType } from './content-type.js';
import type { ContentTypeRegistry } from './content-type-registry.js';

/** Relation values by column, then by target id: what `formatRow` shows for a relation. */
export type RelationLookup = ReadonlyMap<string, ReadonlyMap<string, RelationValue>>;

/** Most referencing rows named in a refused delete. */
const MAX_REFERENCES = 20;

/** The relation columns of a type. */
function relationColumns(type: ContentType) {
  return type.columns.filter((column) => column.type === 'relation');
}

/**
 * Reads the target rows of every relation column of `rows` in one query per column, so a page of
 * rows costs a fixed number of queries however many relations it has.
 */
export async function resolveRelations(
  type: ContentType,
  rows: readonly StoredRow[],
  registry: ContentTypeRegistry,
  repository: ContentRepository,
): Promise<RelationLookup> {
  const lookup = new Map<string, Map<string, RelationValue>>();
  for (const column of relationColumns(type)) {
    const ids = [...new Set(rows.map((row) => row[column.name]).filter((id): id is string => typeof id === 'string'))];
    const resolved = new Map<string, RelationValue>();
    lookup.set(column.name, resolved);
    const target = registry.findBySlug(column.target ?? '');
    if (ids.length === 0 || !target) continue;
    for (const found of await repository.findByIds(target.table, ids)) {
      const id = String(found.id);
      resolved.set(id, {
        id,
        title: textOrNull(target.titleColumn && found[target.titleColumn]),
        slug: textOrNull(target.slugColumn && found[target.slugColumn]),
      });
    }
  }
  return lookup;
}

/** Checks that every relation value being written points at an existing row of its target type. */
export async function checkRelationTargets(
  type: ContentType,
  values: ReadonlyMap<string, unknown>,
  registry: ContentTypeRegistry,
  repository: ContentRepository,
): Promise<void> {
  const problems = noProblems();
  for (const column of relationColumns(type)) {
    const id = values.get(column.name);
    if (typeof id !== 'string') continue;
    const target = registry.findBySlug(column.target ?? '');
    if (!target) problems[column.name] = { code: 'target_type_gone', type: column.target ?? '' };
    else if (!(await repository.findById(target.table, id))) {
      problems[column.name] = { code: 'no_such_row', table: target.table, id };
    }
  }
  if (hasProblems(problems)) throw validationError(problems);
}

/**
 * Refuses to delete a row that other rows still point at (409). Rows of types the caller may read
 * (`readable`, as a credential's content-type limit; null: every type) are named; rows of the
 * other types are only counted, so a limited credential learns neither their types nor their titles.
 */
export async function assertNotReferenced(
  type: ContentType,
  id: string,
  registry: ContentTypeRegistry,
  repository: ContentRepository,
  readable: readonly string[] | null = null,
): Promise<void> {
  const references: RowReference[] = [];
  let others = 0;
  for (const other of registry.list()) {
    for (const column of relationColumns(other)) {
      if (column.target !== type.slug) continue;
      if (!typeAllowed(readable, other)) {
        others += await repository.countReferencing(other.table, column.name, id);
        continue;
      }
      if (references.length >= MAX_REFERENCES) continue;
      const rows = await repository.findReferencing(other.table, column.name, id, MAX_REFERENCES - references.length);
      for (const row of rows) {
        const title = textOrNull(other.titleColumn && row[other.titleColumn]);
        references.push({ table: other.table, id: String(row.id), title, column: column.name });
      }
    }
  }
  if (references.length === 0 && others === 0) return;
  const named = references.map((ref) => `${ref.table} ${JSON.stringify(ref.title ?? ref.id)} (${ref.column})`);
  if (others > 0) named.push(`${others} ${others === 1 ? 'row' : 'rows'} of content types you may not read`);
  const error = new AppError(
    'conflict',
    `This ${type.table} row is still used by ${named.join(', ')}; change those rows first`,
  );
  error.references = references;
  if (others > 0) error.otherReferences = others;
  throw error;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
