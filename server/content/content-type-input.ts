import {
  type BlockType,
  COLUMN_DESCRIPTOR_KEYS,
  type ColumnChange,
  type ColumnDescriptor,
  type ContentTypeKind,
} from '../../common/api-contract.js';
import { BLOCK_KEYS, blockTypeListProblems, MAX_BLOCK_DEPTH } from '../../common/block-rules.js';
import { type FieldProblem, type FieldProblems, hasProblems, noProblems } from '../../common/field-problems.js';
import { LOCALIZABLE_COLUMN_TYPES } from '../../common/locale-rules.js';
import { isIdentifier, isReservedTable, RESERVED_COLUMNS } from '../../common/naming-rules.js';
import { isSlug } from '../../common/slug-rules.js';
import { typeSlugCandidates } from '../../common/type-slug-suggestions.js';
import { AppError, validationError } from '../errors/app-error.js';
import { fieldFor, isColumnType } from '../fields/field-registry.js';
import { checkColumnConditions, readColumnCondition } from './column-conditions.js';
import { publishColumn } from './content-type.js';
import { slugify } from './slugs.js';

const DESCRIPTOR_KEYS: ReadonlySet<string> = new Set(COLUMN_DESCRIPTOR_KEYS);
/** What the server publishes about a column (see PublishedColumn); sent back, they must be unchanged. */
const DERIVED_KEYS = ['filterable', 'orderable'] as const;
const MAX_COLUMNS = 100;
const MAX_TITLE_LENGTH = 200;
const MAX_PREVIEW_LENGTH = 500;

/** Checks a table name for a new content type; returns a problem or null. */
export function tableNameProblem(table: string): FieldProblem | null {
  if (!isIdentifier(table)) return { code: 'not_an_identifier' };
  if (isReservedTable(table)) return { code: 'reserved' };
  return null;
}

/** The first of `typeSlugCandidates(slug)` that `isFree` accepts (its table too), or null. */
export async function freeTypeSlug(
  slug: string,
  isFree: (candidate: string) => Promise<boolean>,
): Promise<string | null> {
  for (const candidate of typeSlugCandidates(slug)) {
    if (await isFree(candidate)) return candidate;
  }
  return null;
}

/** Reads a title: a non-empty string of at most 200 characters. */
export function readTitle(raw: unknown, problems: FieldProblems): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') {
    problems.title = { code: 'required' };
    return undefined;
  }
  if (raw.length > MAX_TITLE_LENGTH) problems.title = { code: 'too_long', max: MAX_TITLE_LENGTH };
  // PostgreSQL cannot store a NUL in text.
  else if (raw.includes('\u0000')) problems.title = { code: 'nul_character' };
  return raw.trim();
}

/**
 * Reads a preview path: null/empty for none, else an http(s) URL or a site path, where `{slug}` and
 * `{id}` are replaced by the row's values (`http://localhost:4321/news/{slug}`).
 */
export function readPreviewPath(raw: unknown, problems: FieldProblems): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (
    typeof raw !== 'string' ||
    raw.length > MAX_PREVIEW_LENGTH ||
    !/^(?:https?:\/\/[^\s]+|\/[^\s]*)$/.test(raw) ||
    raw.includes('\u0000')
  ) {
    problems.preview_path = { code: 'not_a_preview_path' };
    return null;
  }
  return raw;
}

/** The kinds of content type: a list of rows, or exactly one row. */
const KINDS: readonly ContentTypeKind[] = ['collection', 'single'];

/** Reads a type's kind (`type`): `collection` or `single`; left out, `current`. */
export function readKind(raw: unknown, current: ContentTypeKind, problems: FieldProblems): ContentTypeKind {
  if (raw === undefined || raw === null || raw === '') return current;
  if (typeof raw === 'string' && (KINDS as readonly string[]).includes(raw)) return raw as ContentTypeKind;
  problems.type = { code: 'not_an_option', options: [...KINDS] };
  return current;
}

/** Reads a slug for a new type: given (normalised) or made from the title. */
export function readTypeSlug(raw: unknown, title: string | undefined, problems: FieldProblems): string {
  if (raw !== undefined && raw !== null && raw !== '') {
    const slug = typeof raw === 'string' ? slugify(raw) : '';
    if (!isSlug(slug)) problems.slug = { code: 'no_letters' };
    return slug;
  }
  return slugify(title ?? '');
}

/**
 * Reads and checks a column list: each descriptor well-formed for its type, names unique and not
 * reserved, slug parents present, relation targets among `knownTypes` (or `ownSlug`, for a type
 * pointing at itself), conditions naming columns of the list (following renames, see
 * column-conditions). Returns the clean descriptors (and `from` for renames, when allowed).
 */
export function readColumns(
  raw: unknown,
  options: { knownTypes: ReadonlySet<string>; ownSlug: string; allowFrom: boolean },
): ColumnChange[] {
  // JSON text sent as `columns` (a form field) was parsed by the HTTP layer, under the body's limits.
  const list = Array.isArray(raw) ? raw : null;
  if (!list || list.length === 0) throw validationError({ columns: { code: 'not_a_column_list' } });
  if (list.length > MAX_COLUMNS)
    throw validationError({ columns: { code: 'too_many', max: MAX_COLUMNS, of: 'columns' } });
  const problems = noProblems();
  const columns = readColumnList(list, 'columns', problems, options, 0);
  if (hasProblems(problems)) throw validationError(problems);
  return columns;
}

/** What reading a column list checks against. */
interface ColumnListOptions {
  knownTypes: ReadonlySet<string>;
  ownSlug: string;
  allowFrom: boolean;
}

/**
 * Reads one column list at `prefix` (`columns`, or a block type's `columns[1].blocks[0].columns`),
 * adding problems at their paths. `depth` counts the blocks columns around the list: block types'
 * columns take neither slugs nor the names `type` and `id`, and nest at most MAX_BLOCK_DEPTH deep.
 */
function readColumnList(
  list: readonly unknown[],
  prefix: string,
  problems: FieldProblems,
  options: ColumnListOptions,
  depth: number,
): ColumnChange[] {
  const columns: ColumnChange[] = [];
  list.forEach((item, index) => {
    const at = `${prefix}[${index}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      problems[at] = { code: 'not_an_object' };
      return;
    }
    const entry = item as Record<string, unknown>;
    const unknown = Object.keys(entry).filter(
      (key) =>
        !DESCRIPTOR_KEYS.has(key) &&
        !(DERIVED_KEYS as readonly string[]).includes(key) &&
        !(options.allowFrom && key === 'from'),
    );
    if (unknown.length > 0) problems[at] = { code: 'unknown_members', members: unknown };
    const { name, label, type, required } = entry;
    if (typeof name !== 'string' || !isIdentifier(name)) {
      problems[`${at}.name`] = { code: 'not_an_identifier' };
    } else if (RESERVED_COLUMNS.has(name) || (depth > 0 && BLOCK_KEYS.has(name))) {
      problems[`${at}.name`] = { code: 'reserved', name };
    }
    if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_TITLE_LENGTH) {
      problems[`${at}.label`] = { code: 'not_a_label', max: MAX_TITLE_LENGTH };
    }
    if (typeof type !== 'string' || !isColumnType(type) || (depth > 0 && type === 'slug')) {
      problems[`${at}.type`] = { code: 'unknown_column_type' };
      return;
    }
    const required_ = required === undefined ? false : required === true || required === 'true';
    if (required !== undefined && typeof required !== 'boolean' && required !== 'true' && required !== 'false') {
      problems[`${at}.required`] = { code: 'not_a_boolean' };
    }
    const published = publishColumn({ name: String(name), label: '', type, required: false });
    for (const key of DERIVED_KEYS) {
      if (entry[key] !== undefined && entry[key] !== published[key]) {
        problems[`${at}.${key}`] = { code: 'read_only', value: published[key] };
      }
    }
    const column: ColumnChange = { name: String(name), label: String(label ?? '').trim(), type, required: required_ };
    if (entry.parent !== undefined) column.parent = String(entry.parent);
    if (entry.options !== undefined) column.options = entry.options as ColumnDescriptor['options'];
    if (entry.target !== undefined) column.target = String(entry.target);
    if (type === 'blocks') {
      column.blocks = readBlockTypes(entry.blocks, at, problems, options, depth + 1);
    }
    if (readLocalized(entry.localized, type, at, problems, depth)) column.localized = true;
    const when = readColumnCondition(entry.when, at, problems);
    if (when) column.when = when;
    if (options.allowFrom && entry.from !== undefined) column.from = String(entry.from);
    columns.push(column);
  });
  const names = new Set<string>();
  for (const column of columns) {
    if (names.has(column.name)) problems[prefix] = { code: 'listed_twice', column: column.name };
    names.add(column.name);
  }
  for (const [index, column] of columns.entries()) {
    const at = `${prefix}[${index}]`;
    // A blocks column's block types were read above, each problem at its place.
    if (column.type !== 'blocks') {
      const found = fieldFor(column.type).checkDescriptor(column, columns);
      // A column that cannot be localized says so first: its other problems follow once that is fixed.
      if (found && problems[at]?.code !== 'not_localizable') problems[at] = found;
    }
    if (
      column.type === 'relation' &&
      column.target &&
      column.target !== options.ownSlug &&
      !options.knownTypes.has(column.target)
    ) {
      problems[`${at}.target`] = { code: 'no_such_type', type: column.target };
    }
  }
  // Conditions inside a block name columns of the same block type.
  checkColumnConditions(columns, problems, (index) => `${prefix}[${index}]`);
  return columns;
}

/**
 * Reads a descriptor's `localized` (a boolean; false is kept as absent, so a descriptor reads back
 * as sent). Only `LOCALIZABLE_COLUMN_TYPES` hold a value per locale; a block type's columns never
 * do, whatever their type: a block lives inside its blocks column's one value, which every locale
 * shares, so the problem names that column type.
 */
function readLocalized(raw: unknown, type: string, at: string, problems: FieldProblems, depth: number): boolean {
  if (raw === undefined || raw === false) return false;
  if (raw !== true) {
    problems[`${at}.localized`] = { code: 'not_a_boolean' };
    return false;
  }
  if (depth > 0) problems[at] = { code: 'not_localizable', type: 'blocks' };
  else if (!LOCALIZABLE_COLUMN_TYPES.has(type)) problems[at] = { code: 'not_localizable', type };
  return true;
}

/** Reads a blocks column's block types (its `blocks` member) at `at`, each type's columns as a column list. */
function readBlockTypes(
  raw: unknown,
  at: string,
  problems: FieldProblems,
  options: ColumnListOptions,
  depth: number,
): BlockType[] {
  if (depth > MAX_BLOCK_DEPTH) {
    problems[`${at}.blocks`] = { code: 'too_deep', max: MAX_BLOCK_DEPTH };
    return [];
  }
  for (const found of blockTypeListProblems(raw)) problems[`${at}${found.at}`] = found.problem;
  if (!Array.isArray(raw)) return [];
  const blockTypes: BlockType[] = [];
  raw.forEach((item, index) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return;
    const { name, label, columns } = item as Record<string, unknown>;
    const place = `${at}.blocks[${index}].columns`;
    if (!Array.isArray(columns) || columns.length === 0) return;
    if (columns.length > MAX_COLUMNS) {
      problems[place] = { code: 'too_many', max: MAX_COLUMNS, of: 'columns' };
      return;
    }
    blockTypes.push({
      name: String(name),
      label: String(label ?? '').trim(),
      columns: readColumnList(columns, place, problems, options, depth),
    });
  });
  return blockTypes;
}

/** Refuses body members a content-type write does not know. */
export function refuseUnknownMembers(body: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw validationError(Object.fromEntries(unknown.map((key) => [key, { code: 'not_changeable' } as const])));
  }
}

/** The body of a content-type write as an object. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('bad_request', 'The request body must be an object describing the content type');
  }
  return body as Record<string, unknown>;
}
