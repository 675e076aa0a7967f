/**
 * Conditional fields: a column whose descriptor carries `when` is shown (in the editor) and
 * required (by the server) only while its condition holds on the row's other values. Its value is
 * kept while it is hidden, and ignored by `required`. The server and the editor both decide with
 * this module, so they never disagree; anything with columns of its own (a block type too) can use it.
 */
import type { FieldProblem } from './field-problems.js';

/** A value `is` and `isNot` compare with: a select's option id, a boolean, a number or a text. */
export type ConditionValue = string | number | boolean;

/**
 * When a column is shown: the value of the column `field` is one of `is`, is none of `isNot`, is
 * empty (`empty: true`), or is not (`notEmpty: true`). Exactly one operator per condition.
 */
export type FieldCondition =
  | { field: string; is: ConditionValue[] }
  | { field: string; isNot: ConditionValue[] }
  | { field: string; empty: true }
  | { field: string; notEmpty: true };

/** The operators a condition may use, in the order the editor offers them. */
export const CONDITION_OPERATORS = ['is', 'isNot', 'empty', 'notEmpty'] as const;

/** One of `CONDITION_OPERATORS`. */
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** What the rules need of a column: ColumnDescriptor has it, and so may a block type's column. */
export interface ConditionalColumn {
  name: string;
  type: string;
  when?: FieldCondition;
  options?: readonly { id: string }[];
}

/** Column types whose values `is` and `isNot` can compare; the others are tested with empty or notEmpty only. */
const COMPARABLE_TYPES: ReadonlySet<string> = new Set([
  'select',
  'boolean',
  'number',
  'text',
  'slug',
  'tags',
  'relation',
]);
const MAX_VALUES = 100;
const MAX_VALUE_LENGTH = 200;

/** The operator of a condition. */
export function conditionOperator(when: FieldCondition): ConditionOperator {
  if ('is' in when) return 'is';
  if ('isNot' in when) return 'isNot';
  return 'empty' in when ? 'empty' : 'notEmpty';
}

/** The values `is` or `isNot` list, or none for `empty` and `notEmpty`. */
export function conditionValues(when: FieldCondition): readonly ConditionValue[] {
  if ('is' in when) return when.is;
  if ('isNot' in when) return when.isNot;
  return [];
}

/** A condition made from its parts (as the type editor holds them). */
export function makeCondition(field: string, operator: ConditionOperator, values: ConditionValue[]): FieldCondition {
  switch (operator) {
    case 'is':
      return { field, is: values };
    case 'isNot':
      return { field, isNot: values };
    case 'empty':
      return { field, empty: true };
    case 'notEmpty':
      return { field, notEmpty: true };
  }
}

const isConditionValue = (value: unknown): value is ConditionValue =>
  (typeof value === 'string' && value !== '' && value.length <= MAX_VALUE_LENGTH && !value.includes('\u0000')) ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  typeof value === 'boolean';

/**
 * Reads a descriptor's `when` as sent: an object with a string `field` and exactly one operator
 * (`is` or `isNot` with 1 to 100 distinct values, `empty: true` or `notEmpty: true`) and nothing
 * else. Returns a clean copy, or null when it has another shape.
 */
export function readCondition(raw: unknown): FieldCondition | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const entry = raw as Record<string, unknown>;
  const keys = Object.keys(entry);
  if (keys.length !== 2 || typeof entry.field !== 'string' || entry.field === '') return null;
  const operator = keys.find((key) => key !== 'field');
  const field = entry.field;
  switch (operator) {
    case 'is':
    case 'isNot': {
      const values = entry[operator];
      if (!Array.isArray(values) || values.length === 0 || values.length > MAX_VALUES) return null;
      if (!values.every(isConditionValue)) return null;
      if (new Set(values).size !== values.length) return null;
      return makeCondition(field, operator, [...values]);
    }
    case 'empty':
    case 'notEmpty':
      return entry[operator] === true ? makeCondition(field, operator, []) : null;
    default:
      return null;
  }
}

/**
 * Checks the condition of `column` against the other columns of its list: the field it names is
 * a column there and not itself nor a column that (through its own condition) depends on this one,
 * and `is`/`isNot` values are values that field can hold (option ids of a select, booleans of a
 * boolean, numbers of a number, texts of a text, slug, tags or relation). Returns the first problem, or null.
 */
export function conditionProblem(column: ConditionalColumn, all: readonly ConditionalColumn[]): FieldProblem | null {
  const when = column.when;
  if (when === undefined) return null;
  const byName = new Map(all.map((candidate) => [candidate.name, candidate]));
  const target = byName.get(when.field);
  if (!target) return { code: 'condition_unknown_field', field: when.field };
  const chain = [column.name];
  for (let at: ConditionalColumn | undefined = target; at; at = at.when ? byName.get(at.when.field) : undefined) {
    if (at.name === column.name || chain.length > all.length) return { code: 'condition_cycle', columns: chain };
    chain.push(at.name);
  }
  const values = conditionValues(when);
  if (values.length === 0) return null;
  if (!COMPARABLE_TYPES.has(target.type)) return { code: 'condition_empty_only', field: target.name };
  const fits = (value: ConditionValue): boolean => {
    switch (target.type) {
      case 'select':
        return typeof value === 'string' && (target.options ?? []).some((option) => option.id === value);
      case 'boolean':
        return typeof value === 'boolean';
      case 'number':
        return typeof value === 'number';
      default:
        return typeof value === 'string';
    }
  };
  const misfit = values.find((value) => !fits(value));
  return misfit === undefined ? null : { code: 'condition_value', field: target.name, value: JSON.stringify(misfit) };
}

/** Whether a value counts as empty: absent, null, an empty or blank text, an empty list. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** The comparable parts of a value: a list's elements, a relation's id, else the value itself. */
function comparableParts(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object' && 'id' in value) return [(value as { id: unknown }).id];
  return [value];
}

/**
 * Whether `part` equals `wanted`. A number compares with a number or the text of one (the editor
 * holds what is typed), a boolean with a boolean or the text true or false.
 */
function matches(part: unknown, wanted: ConditionValue): boolean {
  if (part === wanted) return true;
  if (typeof wanted === 'number' && typeof part === 'string' && part.trim() !== '') return Number(part) === wanted;
  if (typeof wanted === 'boolean' && typeof part === 'string') return part === String(wanted);
  return false;
}

/**
 * Whether a condition holds for `value`, the value of the field it names (as a row reads it, as a
 * write sends it, or as the editor's form holds it). `is` holds when the value (for tags: any tag)
 * is one of the values; `isNot` when it is none of them (an empty value is none of them).
 */
export function conditionHolds(when: FieldCondition, value: unknown): boolean {
  const operator = conditionOperator(when);
  if (operator === 'empty') return isEmptyValue(value);
  if (operator === 'notEmpty') return !isEmptyValue(value);
  const parts = isEmptyValue(value) ? [] : comparableParts(value);
  const found = conditionValues(when).some((wanted) => parts.some((part) => matches(part, wanted)));
  return operator === 'is' ? found : !found;
}

/**
 * The names of the columns shown for these values: a column without a condition always is; one with
 * a condition while the column it names is shown and the condition holds on that column's value.
 * A condition on a hidden column does not hold (its value is ignored), so chains hide together.
 */
export function shownColumns(
  columns: readonly ConditionalColumn[],
  valueFor: (name: string) => unknown,
): ReadonlySet<string> {
  const byName = new Map(columns.map((column) => [column.name, column]));
  const decided = new Map<string, boolean>();
  const isShown = (column: ConditionalColumn, depth: number): boolean => {
    const known = decided.get(column.name);
    if (known !== undefined) return known;
    const when = column.when;
    let shown = true;
    if (when !== undefined) {
      const target = byName.get(when.field);
      // A cycle or a missing field is refused with the descriptors; met anyway, the column is hidden.
      shown =
        target !== undefined &&
        depth < columns.length &&
        isShown(target, depth + 1) &&
        conditionHolds(when, valueFor(target.name));
    }
    decided.set(column.name, shown);
    return shown;
  };
  return new Set(columns.filter((column) => isShown(column, 0)).map((column) => column.name));
}

/** The columns a condition can name for `column`: the others of its list that do not depend on it. */
export function conditionTargets<T extends ConditionalColumn>(column: ConditionalColumn, all: readonly T[]): T[] {
  return all.filter(
    (candidate) =>
      candidate.name !== column.name &&
      conditionProblem({ ...column, when: { field: candidate.name, empty: true } }, all) === null,
  );
}
