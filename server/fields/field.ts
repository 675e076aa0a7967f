import type { ColumnDescriptor, ColumnType, ColumnValue, RelationValue } from '../../common/api-contract.js';
import type { ProblemAt } from '../../common/block-rules.js';
import type { FieldProblem } from '../../common/field-problems.js';

/** SQL storage class a column type uses; the schema builder maps it to the dialect's type. */
export type SqlType = 'text' | 'integer' | 'real';

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it) as a plain object. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * Which side of the API a column's schema describes: a value as rows carry it (`read`), as a JSON
 * write body may send it (`write`), or as an `application/x-www-form-urlencoded` field (`form`).
 */
export type SchemaUse = 'read' | 'write' | 'form';

/**
 * What a field's parse returns: a value to store, or a problem to report on that field. A value
 * with parts (blocks) may name every problem inside it in `within`, each at its path after the
 * field's name (`[2].image`); `problem` is then the first of them.
 */
export type ParseResult =
  | { ok: true; value: ColumnValue }
  | { ok: false; problem: FieldProblem; within?: readonly ProblemAt[] };

/** A row a value points at: the target type's slug, the row's id, and where in the value (`''`: the value itself). */
export interface RowPointer {
  target: string;
  id: string;
  at: string;
}

/**
 * One column type: how it is stored, parsed from a request, validated and written to JSON.
 * Each column type implements this once (like PocketBase's `core/field_*.go`).
 */
export interface FieldType {
  readonly type: ColumnType;
  readonly sqlType: SqlType;
  /** How `filter=<field>=<value>` matches: equality, membership in an array value, or not at all. */
  readonly filter: 'equals' | 'contains' | 'none';
  /** Whether `order=<field>` makes sense for the type. */
  readonly orderable: boolean;
  /**
   * Turns a raw request value (form string, JSON value) into the stored value.
   * `null` means "no value"; `required` is checked by the caller after parsing.
   */
  parse(raw: unknown, column: ColumnDescriptor): ParseResult;
  /** Parses the value side of `filter=<field>=<value>`. */
  parseFilter(raw: string, column: ColumnDescriptor): ParseResult;
  /** Turns a parsed value into what the SQL column holds. */
  toStored(value: ColumnValue): unknown;
  /** Turns a stored value into its JSON form. */
  serialize(stored: unknown, column: ColumnDescriptor): ColumnValue;
  /**
   * The JSON Schema of a value of the column, without null (`columnSchema` in the registry adds
   * null where the column may be empty): the one mapping the OpenAPI document and the TypeScript
   * types are made from.
   */
  jsonSchema(column: ColumnDescriptor, use: SchemaUse): JsonSchema;
  /**
   * The rows a parsed value points at (relations, also inside blocks): what the row service checks
   * exists on a write and what keeps a referenced row from being deleted. Left out by types that
   * point at no rows.
   */
  rowPointers?(value: ColumnValue, column: ColumnDescriptor): RowPointer[];
  /**
   * A read value with the rows it points at inside it (relations in blocks) replaced by what
   * `resolve` gives for each: the target row's id, title and slug, or null where the reader may not
   * see it. Set by types whose values hold relations within (a relation column itself is resolved
   * by the row format).
   */
  resolvePointers?(
    value: ColumnValue,
    column: ColumnDescriptor,
    resolve: (pointer: RowPointer) => RelationValue | null,
  ): ColumnValue;
  /**
   * The text a search finds in a stored value (the text types as written; rich text without its
   * tags; the text fields inside blocks), or null when there is none. Left out by types whose
   * values hold no words to search (numbers, dates, images, relations...).
   */
  searchText?(stored: unknown, column: ColumnDescriptor): string | null;
  /** Set where an empty value reads as something other than null (tags: an empty list). */
  readonly neverNull?: true;
  /** Checks the descriptor itself (options present, parent named...); returns its first problem, or null. */
  checkDescriptor(column: ColumnDescriptor, all: readonly ColumnDescriptor[]): FieldProblem | null;
}

/** Parse outcome helpers, so each field reads as its rules. */
export const ok = (value: ColumnValue): ParseResult => ({ ok: true, value });
export const problem = (found: FieldProblem): ParseResult => ({ ok: false, problem: found });

/** Adds a parse failure to a request's problems under `name`: each problem inside the value at its path. */
export function reportProblems(problems: Record<string, FieldProblem>, name: string, failed: ParseResult): void {
  if (failed.ok) return;
  if (!failed.within) problems[name] = failed.problem;
  else for (const found of failed.within) problems[`${name}${found.at}`] = found.problem;
}

/** For types whose descriptors need nothing beyond the common members. */
export const anyDescriptor = (): FieldProblem | null => null;

/**
 * Reduces a raw value to one string, or null for "absent/empty".
 * A value sent twice (an array from a form) is refused: one value is expected.
 */
export function singleString(raw: unknown): ParseResult {
  if (raw === undefined || raw === null) return ok(null);
  if (typeof raw === 'number' || typeof raw === 'boolean') return ok(String(raw));
  if (typeof raw !== 'string') {
    return problem({ code: Array.isArray(raw) ? 'repeated' : 'not_text' });
  }
  return ok(raw === '' ? null : raw);
}

/**
 * Parses a value that must be one string: absent or empty is null, a repeat or a non-string is a
 * problem, and anything else goes to `check`.
 */
export function parseText(raw: unknown, check: (text: string) => ParseResult): ParseResult {
  const single = singleString(raw);
  if (!single.ok || single.value === null) return single;
  return check(single.value as string);
}

/** Stored text back to JSON: null stays null, anything else becomes a string. */
export const storedText = (stored: unknown): ColumnValue =>
  stored === null || stored === undefined ? null : String(stored);

/** The common case: the parsed value is stored as it is. */
export const storedAsIs = (value: ColumnValue): unknown => value;
