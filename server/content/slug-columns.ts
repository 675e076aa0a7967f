import type { ColumnValue } from '../../common/api-contract.js';
import { hasProblems, noProblems } from '../../common/field-problems.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { AppError, validationError } from '../errors/app-error.js';
import type { ContentType } from './content-type.js';
import type { RowInput } from './row-input.js';
import { slugify } from './slugs.js';

/** Which slug values are taken; the row being written never counts as taking its own slug. */
export interface SlugLookup {
  isTaken(column: string, slug: string): boolean | Promise<boolean>;
  /** The first free of `base`, `base-2`, `base-3`... */
  firstFree(column: string, base: string): string | Promise<string>;
}

/**
 * Fills in slug columns: a given slug is kept (normalised by its field) and must be free; an absent
 * one is generated from its parent on create, and on update when explicitly cleared. Used by every
 * write and by the bulk import, each with its own way of knowing which slugs are taken.
 */
export async function assignSlugs(
  type: ContentType,
  input: RowInput,
  current: StoredRow | null,
  lookup: SlugLookup,
): Promise<Map<string, ColumnValue>> {
  const values = new Map(input.values);
  const problems = noProblems();
  for (const column of type.columns) {
    if (column.type !== 'slug') continue;
    const given = values.get(column.name);
    if (typeof given === 'string') {
      if (await lookup.isTaken(column.name, given)) {
        throw new AppError('conflict', `The ${column.name} ${JSON.stringify(given)} is already used by another row`, {
          [column.name]: { code: 'taken' },
        });
      }
      continue;
    }
    if (current !== null && !values.has(column.name)) continue;
    const parent = column.parent ?? '';
    const parentValue = values.has(parent) ? values.get(parent) : current?.[parent];
    const base = typeof parentValue === 'string' ? slugify(parentValue) : '';
    if (base === '') {
      if (column.required) problems[column.name] = { code: 'required_slug', source: parent };
      else values.set(column.name, null);
      continue;
    }
    values.set(column.name, await lookup.firstFree(column.name, base));
  }
  if (hasProblems(problems)) throw validationError(problems);
  return values;
}
