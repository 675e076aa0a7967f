import { typeAllowed } from '../../common/access-rules.js';
import type {
  ColumnDescriptor,
  ColumnValue,
  PublishedColumn,
  RelationValue,
  RowReference,
} from '../../common/api-contract.js';
import { columnsWithin } from '../../common/block-rules.js';
import { hasProblems, noProblems } from '../../common/field-problems.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import type { ContentRepository, StoredRow } from '../db/repositories/content-repository.js';
import { AppError, validationError } from '../errors/app-error.js';
import { fieldFor } from '../fields/field-registry.js';
import type { RequestLocale } from '../locales/locale-parameter.js';
import { valueColumnIn } from '../locales/localized-values.js';
import type { ContentType } from './content-type.js';
import type { ContentTypeRegistry } from './content-type-registry.js';

/** Relation values by column, then by target id: what `formatRow` shows for a relation. */
export type RelationLookup = ReadonlyMap<string, ReadonlyMap<string, RelationValue>>;

/** Most referencing rows named in a refused delete. */
const MAX_REFERENCES = 20;
/** Most rows read whose JSON value (blocks) mentions a row's id, to check which of them point at it. */
const MAX_MENTIONS = 1000;

/** Finds the content type a relation points at, by its slug (the content-type registry). */
export interface RelationTargets {
  findBySlug(slug: string): ContentType | undefined;
}

/** No hidden relations: what a credential without a content-type limit gets. */
const NONE: ReadonlySet<string> = new Set();

/** The relation columns of a type. */
function relationColumns(type: ContentType) {
  return type.columns.filter((column) => column.type === 'relation');
}

/**
 * The relation columns of `type` that a credential limited to `readable` (content types by table
 * or slug; null: every type) may not follow: those pointing at a type the limit leaves out, or at
 * no type now. To that credential they read as null, name no target type, take no filter or
 * order, and a write may leave them as they are (null or left out) but not set them: anything
 * else would tell it which rows of the hidden type exist.
 */
export function hiddenRelations(
  type: ContentType,
  targets: RelationTargets,
  readable: readonly string[] | null,
): ReadonlySet<string> {
  if (readable === null) return NONE;
  const hidden = new Set<string>();
  for (const column of relationColumns(type)) {
    const target = targets.findBySlug(column.target ?? '');
    if (!target || !typeAllowed(readable, target)) hidden.add(column.name);
  }
  return hidden.size === 0 ? NONE : hidden;
}

/**
 * `type` as it is described to a credential that may not follow its `hidden` relations: their
 * descriptors lose `target` and are neither filterable nor orderable. For descriptions only
 * (content-type lists, column lists, OpenAPI): rows are read and written with `type` itself.
 */
export function describedWithout(type: ContentType, hidden: ReadonlySet<string>): ContentType {
  if (hidden.size === 0) return type;
  const columns = type.columns.map((column) => (hidden.has(column.name) ? withoutTarget(column) : column));
  const publishedColumns = type.publishedColumns.map(
    (column): PublishedColumn =>
      hidden.has(column.name) ? { ...withoutTarget(column), filterable: false, orderable: false } : column,
  );
  return { ...type, columns, columnsByName: new Map(columns.map((c) => [c.name, c])), publishedColumns };
}

/**
 * The content types a credential limited to `readable` (null: every type) may read, each as it is
 * described to it (`describedWithout` its hidden relations): what its type lists and API
 * descriptions show.
 */
export function typesSeenBy(registry: ContentTypeRegistry, readable: readonly string[] | null): ContentType[] {
  return registry
    .list()
    .filter((type) => typeAllowed(readable, type))
    .map((type) => describedWithout(type, hiddenRelations(type, registry, readable)));
}

function withoutTarget<T extends ColumnDescriptor>(column: T): Omit<T, 'target'> {
  const { target: _target, ...rest } = column;
  return rest;
}

/** The refusal of a filter, order or write that names a relation the credential may not follow. */
export function hiddenRelationRefused(name: string): AppError {
  return new AppError(
    'forbidden',
    `${name} points at a content type this credential may not read: it cannot be filtered, ordered on or set (send it as null, or leave it out, and it keeps its value)`,
  );
}

/**
 * Reads the target rows of every relation column of `rows` in one query per column, so a page of
 * rows costs a fixed number of queries however many relations it has. Relations a credential
 * limited to `readable` may not follow (see `hiddenRelations`) are not read, so they format as null.
 * A target's localized title and slug read in `locale` (absent, or `all`: the default locale).
 */
export async function resolveRelations(
  type: ContentType,
  rows: readonly StoredRow[],
  registry: ContentTypeRegistry,
  repository: ContentRepository,
  readable: readonly string[] | null = null,
  locale?: { document: LocalesDocument; requested: RequestLocale },
): Promise<RelationLookup> {
  const lookup = new Map<string, Map<string, RelationValue>>();
  const code = locale?.requested.kind === 'one' ? locale.requested.code : null;
  const relationOf = (target: ContentType, found: StoredRow, id: string): RelationValue => {
    // A target's localized title and slug read in the asked locale, as the target's own rows do.
    const read = (name: string | null) => {
      const column = name === null ? undefined : target.columnsByName.get(name);
      if (!column) return null;
      return textOrNull(found[locale && code !== null ? valueColumnIn(locale.document, column, code) : column.name]);
    };
    return { id, title: read(target.titleColumn), slug: read(target.slugColumn) };
  };
  const hidden = hiddenRelations(type, registry, readable);
  for (const column of relationColumns(type)) {
    const ids = [...new Set(rows.map((row) => row[column.name]).filter((id): id is string => typeof id === 'string'))];
    const resolved = new Map<string, RelationValue>();
    lookup.set(column.name, resolved);
    const target = registry.findBySlug(column.target ?? '');
    if (ids.length === 0 || !target || hidden.has(column.name)) continue;
    for (const found of await repository.findByIds(target.table, ids)) {
      const id = String(found.id);
      resolved.set(id, relationOf(target, found, id));
    }
  }
  // Relations inside other values (blocks): one query per target type, keyed by target and id.
  for (const column of type.columns) {
    const field = fieldFor(column.type);
    if (column.type === 'relation' || !field.rowPointers) continue;
    const resolved = new Map<string, RelationValue>();
    lookup.set(column.name, resolved);
    const wanted = new Map<string, Set<string>>();
    for (const row of rows) {
      for (const pointer of field.rowPointers(field.serialize(row[column.name], column), column)) {
        const target = registry.findBySlug(pointer.target);
        if (!target || !typeAllowed(readable, target)) continue;
        const ids = wanted.get(pointer.target) ?? new Set<string>();
        wanted.set(pointer.target, ids.add(pointer.id));
      }
    }
    for (const [slug, ids] of wanted) {
      const target = registry.requireBySlug(slug);
      for (const found of await repository.findByIds(target.table, [...ids])) {
        const id = String(found.id);
        resolved.set(pointerKey(slug, id), relationOf(target, found, id));
      }
    }
  }
  return lookup;
}

/** How a relation inside a value is keyed in its column's lookup: ids are unique only within a type. */
export function pointerKey(target: string, id: string): string {
  return `${target}\u0000${id}`;
}

/**
 * Refuses a write that points, inside a value (blocks), at a type the credential limited to
 * `readable` may not read (403), as a relation column to such a type is refused: whether the row
 * exists would tell it what the hidden type holds.
 */
export function refuseHiddenPointers(
  type: ContentType,
  values: ReadonlyMap<string, unknown>,
  registry: ContentTypeRegistry,
  readable: readonly string[] | null,
): void {
  if (readable === null) return;
  for (const column of type.columns) {
    const field = fieldFor(column.type);
    const value = values.get(column.name);
    if (column.type === 'relation' || !field.rowPointers || value === undefined || value === null) continue;
    for (const pointer of field.rowPointers(value as ColumnValue, column)) {
      const target = registry.findBySlug(pointer.target);
      if (!target || !typeAllowed(readable, target)) throw hiddenRelationRefused(`${column.name}${pointer.at}`);
    }
  }
}

/**
 * Checks that every row a written value points at (a relation, or relations inside blocks, as
 * each column's field type lists them) exists in its target type; problems name the place.
 */
export async function checkRelationTargets(
  type: ContentType,
  values: ReadonlyMap<string, unknown>,
  registry: ContentTypeRegistry,
  repository: ContentRepository,
): Promise<void> {
  const problems = noProblems();
  for (const column of type.columns) {
    const pointers = fieldFor(column.type).rowPointers;
    const value = values.get(column.name);
    if (!pointers || value === undefined || value === null) continue;
    for (const { target: slug, id, at } of pointers.call(fieldFor(column.type), value as ColumnValue, column)) {
      const target = registry.findBySlug(slug);
      if (!target) problems[`${column.name}${at}`] = { code: 'target_type_gone', type: slug };
      else if (!(await repository.findById(target.table, id))) {
        problems[`${column.name}${at}`] = { code: 'no_such_row', table: target.table, id };
      }
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
    const allowed = typeAllowed(readable, other);
    for (const column of relationColumns(other)) {
      if (column.target !== type.slug) continue;
      if (!allowed) {
        others += await repository.countReferencing(other.table, column.name, id);
        continue;
      }
      if (references.length >= MAX_REFERENCES) continue;
      const rows = await repository.findReferencing(other.table, column.name, id, MAX_REFERENCES - references.length);
      for (const row of rows) references.push(referenceOf(other, row, column.name));
    }
    // Columns that hold relations inside their value (blocks): rows whose text names the id, each
    // checked through its field type.
    for (const column of other.columns) {
      const field = fieldFor(column.type);
      if (column.type === 'relation' || !field.rowPointers || !pointsAt(column, type.slug)) continue;
      const mentioning = await repository.findMentioning(other.table, column.name, JSON.stringify(id), MAX_MENTIONS);
      for (const row of mentioning) {
        const value = field.serialize(row[column.name], column);
        const pointers = field.rowPointers(value, column);
        if (!pointers.some((pointer) => pointer.target === type.slug && pointer.id === id)) continue;
        if (!allowed) others++;
        else if (references.length < MAX_REFERENCES) references.push(referenceOf(other, row, column.name));
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

/** Whether a column may point at rows of the type with this slug (itself, or a relation inside its blocks). */
function pointsAt(column: ColumnDescriptor, slug: string): boolean {
  return columnsWithin(column).some((inner) => inner.type === 'relation' && inner.target === slug);
}

/** A row that points at another, as a refused delete names it. */
function referenceOf(type: ContentType, row: StoredRow, column: string): RowReference {
  return {
    table: type.table,
    id: String(row.id),
    title: textOrNull(type.titleColumn && row[type.titleColumn]),
    column,
  };
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
