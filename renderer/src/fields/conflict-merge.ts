import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { META_KEYS } from '../../../common/row-fields.js';
import type { FormValue } from './field-types.js';
import type { FormState } from './form-state.js';

/** The name a conflict gives the SEO members, taken or left together. */
export const META_FIELD = 'meta';

/** Which version of a field a resolved conflict keeps. */
export type ConflictChoice = 'theirs' | 'mine';

/** One field of a save that met someone else's: as opened, as they left it, as this person has it. */
export interface ConflictField {
  name: string;
  /** The column's label; null for the SEO members (the dialog names them). */
  label: string | null;
  base: FormValue;
  theirs: FormValue;
  mine: FormValue;
  theyChanged: boolean;
  iChanged: boolean;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

const metaOf = (state: FormState) => Object.fromEntries(META_KEYS.map((key) => [key, state.meta[key]]));

/**
 * The fields either person changed since the version this person opened (`base`): what the other
 * person saved (`theirs`) beside what this person has (`mine`), in the form's order, SEO last.
 */
export function conflictFields(
  columns: readonly ColumnDescriptor[],
  base: FormState,
  theirs: FormState,
  mine: FormState,
): ConflictField[] {
  const fields: ConflictField[] = columns.map((column) => ({
    name: column.name,
    label: column.label || column.name,
    base: base.values[column.name],
    theirs: theirs.values[column.name],
    mine: mine.values[column.name],
    theyChanged: false,
    iChanged: false,
  }));
  fields.push({
    name: META_FIELD,
    label: null,
    base: metaOf(base),
    theirs: metaOf(theirs),
    mine: metaOf(mine),
    theyChanged: false,
    iChanged: false,
  });
  for (const field of fields) {
    field.theyChanged = !same(field.theirs, field.base);
    field.iChanged = !same(field.mine, field.base);
  }
  return fields.filter((field) => field.theyChanged || field.iChanged);
}

/** What a field keeps unless the person chooses: their own change where they made one, else the other's. */
export function defaultChoice(field: ConflictField): ConflictChoice {
  return field.iChanged ? 'mine' : 'theirs';
}

/**
 * The form after a conflict is resolved: the version stored now (`theirs`) with each field chosen
 * as `mine` taken from this person's form (a slug with whether it follows its source). Saving it
 * writes exactly those fields over the stored version.
 */
export function resolveConflict(
  fields: readonly ConflictField[],
  theirs: FormState,
  mine: FormState,
  choices: Readonly<Record<string, ConflictChoice>>,
): FormState {
  const values = { ...theirs.values };
  const following = { ...theirs.following };
  let meta = theirs.meta;
  for (const field of fields) {
    if ((choices[field.name] ?? defaultChoice(field)) !== 'mine') continue;
    if (field.name === META_FIELD) {
      meta = mine.meta;
      continue;
    }
    values[field.name] = mine.values[field.name];
    if (field.name in mine.following) following[field.name] = mine.following[field.name];
  }
  return { values, following, meta };
}

/** This person's version as JSON text, to keep aside whatever is chosen (every field, SEO last). */
export function mineAsJson(columns: readonly ColumnDescriptor[], mine: FormState): string {
  const values: Record<string, unknown> = {};
  for (const column of columns) values[column.name] = mine.values[column.name] ?? null;
  values[META_FIELD] = metaOf(mine);
  return `${JSON.stringify(values, null, 2)}\n`;
}
