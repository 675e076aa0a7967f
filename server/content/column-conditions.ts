import type { ColumnChange, ColumnDescriptor, ColumnValue } from '../../common/api-contract.js';
import { conditionProblem, type FieldCondition, readCondition, shownColumns } from '../../common/field-conditions.js';
import { type FieldProblems, hasProblems, noProblems } from '../../common/field-problems.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { validationError } from '../errors/app-error.js';
import { fieldFor } from '../fields/field-registry.js';

/**
 * Reads a descriptor's `when` (common/field-conditions.ts); a malformed one is a problem at
 * `<at>.when`. Returns the clean condition, or undefined when there is none or it is malformed.
 */
export function readColumnCondition(raw: unknown, at: string, problems: FieldProblems): FieldCondition | undefined {
  if (raw === undefined || raw === null) return undefined;
  const when = readCondition(raw);
  if (when === null) problems[`${at}.when`] = { code: 'not_a_condition' };
  return when ?? undefined;
}

/**
 * Checks the conditions of a column list against the list itself. In a type change a condition
 * that names a renamed column (its `from`) follows the rename, so renaming `kind` keeps the columns
 * shown on it; a condition that names a dropped column is refused. `at(index)` names the column.
 */
export function checkColumnConditions(
  columns: ColumnChange[],
  problems: FieldProblems,
  at: (index: number) => string,
): void {
  const names = new Set(columns.map((column) => column.name));
  const renamed = new Map(
    columns.filter((column) => column.from !== undefined).map((column) => [column.from as string, column.name]),
  );
  for (const column of columns) {
    const field = column.when?.field;
    if (column.when && field !== undefined && !names.has(field) && renamed.has(field)) {
      column.when = { ...column.when, field: renamed.get(field) as string };
    }
  }
  for (const [index, column] of columns.entries()) {
    const found = conditionProblem(column, columns);
    if (found) problems[`${at(index)}.when`] = found;
  }
}

/**
 * The required conditional columns an update leaves empty, read against the row as the update
 * leaves it: one shown after the write must hold a value when the write names it or shows it (it
 * was hidden before). A required column shown all along and left alone is as it was, like any
 * required column an update does not name.
 */
export function missingOnUpdate(
  columns: readonly ColumnDescriptor[],
  values: ReadonlyMap<string, ColumnValue>,
  current: StoredRow,
  problems: FieldProblems,
): void {
  const conditional = columns.filter((column) => column.required && column.when && column.type !== 'slug');
  if (conditional.length === 0) return;
  const byName = new Map(columns.map((column) => [column.name, column]));
  const before = (name: string): unknown => {
    const column = byName.get(name);
    return column ? fieldFor(column.type).serialize(current[name] ?? null, column) : null;
  };
  const after = (name: string): unknown => (values.has(name) ? values.get(name) : before(name));
  const shownBefore = shownColumns(columns, before);
  const shownAfter = shownColumns(columns, after);
  for (const column of conditional) {
    if (problems[column.name] || !shownAfter.has(column.name)) continue;
    if (!values.has(column.name) && shownBefore.has(column.name)) continue;
    const value = after(column.name);
    if (value === undefined || value === null) problems[column.name] = { code: 'required' };
  }
}

/**
 * Refuses an update that leaves a required conditional column empty while shown (see
 * `missingOnUpdate`), read against the row as the write's transaction finds it.
 */
export function requireShownColumns(
  type: { columns: readonly ColumnDescriptor[] },
  values: ReadonlyMap<string, ColumnValue>,
  current: StoredRow,
): void {
  const problems = noProblems();
  missingOnUpdate(type.columns, values, current, problems);
  if (hasProblems(problems)) throw validationError(problems);
}
