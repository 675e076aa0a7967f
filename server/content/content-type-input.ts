import type { ColumnChange, ColumnDescriptor } from '../../common/api-contract.js';
import {
  IDENTIFIER_PROBLEM,
  isIdentifier,
  isReservedTable,
  RESERVED_COLUMNS,
  tableFromSlug,
} from '../../common/naming-rules.js';
import { isSlug } from '../../common/slug-rules.js';
import { AppError, validationError } from '../errors/app-error.js';
import { fieldFor, isColumnType } from '../fields/field-registry.js';
import { slugify } from './slugs.js';

const DESCRIPTOR_KEYS = new Set(['name', 'label', 'type', 'required', 'parent', 'options', 'target']);
const MAX_COLUMNS = 100;
const MAX_TITLE_LENGTH = 200;
const MAX_PREVIEW_LENGTH = 500;

/** Checks a table name for a new content type; returns a problem or null. */
export function tableNameProblem(table: string): string | null {
  if (!isIdentifier(table)) return IDENTIFIER_PROBLEM;
  if (isReservedTable(table)) return 'is reserved for Quire itself; pick another name';
  return null;
}

/** Reads a title: a non-empty string of at most 200 characters. */
export function readTitle(raw: unknown, problems: Record<string, string>): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') {
    problems.title = 'is required';
    return undefined;
  }
  if (raw.length > MAX_TITLE_LENGTH) problems.title = `must be at most ${MAX_TITLE_LENGTH} characters`;
  return raw.trim();
}

/**
 * Reads a preview path: null/empty for none, else an http(s) URL or a site path, where `{slug}` and
 * `{id}` are replaced by the row's values (`http://localhost:4321/news/{slug}`).
 */
export function readPreviewPath(raw: unknown, problems: Record<string, string>): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || raw.length > MAX_PREVIEW_LENGTH || !/^(?:https?:\/\/[^\s]+|\/[^\s]*)$/.test(raw)) {
    problems.preview_path =
      'must be an http(s) URL or a path starting with /, such as http://localhost:4321/news/{slug}';
    return null;
  }
  return raw;
}

/** Reads a slug for a new type: given (normalised) or made from the title. */
export function readTypeSlug(raw: unknown, title: string | undefined, problems: Record<string, string>): string {
  if (raw !== undefined && raw !== null && raw !== '') {
    const slug = typeof raw === 'string' ? slugify(raw) : '';
    if (!isSlug(slug)) problems.slug = 'must contain letters or digits';
    return slug;
  }
  return slugify(title ?? '');
}

/** `columns` may come as a JSON array or, from a form, as a JSON string. */
function columnsArray(raw: unknown): unknown[] | null {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return Array.isArray(value) ? value : null;
}

/**
 * Reads and checks a column list: each descriptor well-formed for its type, names unique and not
 * reserved, slug parents present, relation targets among `knownTypes` (or `ownSlug`, for a type
 * pointing at itself). Returns the clean descriptors (and `from` for renames, when allowed).
 */
export function readColumns(
  raw: unknown,
  options: { knownTypes: ReadonlySet<string>; ownSlug: string; allowFrom: boolean },
): ColumnChange[] {
  const list = columnsArray(raw);
  if (!list || list.length === 0) throw validationError({ columns: 'must be a non-empty array of column descriptors' });
  if (list.length > MAX_COLUMNS) throw validationError({ columns: `must have at most ${MAX_COLUMNS} columns` });
  const problems: Record<string, string> = {};
  const columns: ColumnChange[] = [];
  list.forEach((item, index) => {
    const at = `columns[${index}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      problems[at] = 'must be an object';
      return;
    }
    const entry = item as Record<string, unknown>;
    const unknown = Object.keys(entry).filter(
      (key) => !DESCRIPTOR_KEYS.has(key) && !(options.allowFrom && key === 'from'),
    );
    if (unknown.length > 0) problems[at] = `has unknown properties ${unknown.join(', ')}`;
    const { name, label, type, required } = entry;
    if (typeof name !== 'string' || !isIdentifier(name)) {
      problems[`${at}.name`] = IDENTIFIER_PROBLEM;
    } else if (RESERVED_COLUMNS.has(name)) {
      problems[`${at}.name`] = `${name} is reserved; pick another name`;
    }
    if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_TITLE_LENGTH) {
      problems[`${at}.label`] = `must be a non-empty string of at most ${MAX_TITLE_LENGTH} characters`;
    }
    if (typeof type !== 'string' || !isColumnType(type)) {
      problems[`${at}.type`] = 'must be a known column type';
      return;
    }
    const required_ = required === undefined ? false : required === true || required === 'true';
    if (required !== undefined && typeof required !== 'boolean' && required !== 'true' && required !== 'false') {
      problems[`${at}.required`] = 'must be true or false';
    }
    const column: ColumnChange = { name: String(name), label: String(label ?? '').trim(), type, required: required_ };
    if (entry.parent !== undefined) column.parent = String(entry.parent);
    if (entry.options !== undefined) column.options = entry.options as ColumnDescriptor['options'];
    if (entry.target !== undefined) column.target = String(entry.target);
    if (options.allowFrom && entry.from !== undefined) column.from = String(entry.from);
    columns.push(column);
  });
  const names = new Set<string>();
  for (const column of columns) {
    if (names.has(column.name)) problems.columns = `column ${column.name} is listed twice`;
    names.add(column.name);
  }
  for (const [index, column] of columns.entries()) {
    const found = fieldFor(column.type).checkDescriptor(column, columns);
    if (found.length > 0) problems[`columns[${index}]`] = found.join('; ');
    if (
      column.type === 'relation' &&
      column.target &&
      column.target !== options.ownSlug &&
      !options.knownTypes.has(column.target)
    ) {
      problems[`columns[${index}].target`] = `there is no content type ${column.target}`;
    }
  }
  if (Object.keys(problems).length > 0) throw validationError(problems);
  return columns;
}

/** Refuses body members a content-type write does not know. */
export function refuseUnknownMembers(body: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw validationError(
      Object.fromEntries(unknown.map((key) => [key, 'is not something a content type has or can change'])),
    );
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
