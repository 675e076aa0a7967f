import type { ColumnType } from '../contract/api-contract.js';
import type { FieldType } from './field.js';
import { datetimeField } from './field-datetime.js';
import { selectField } from './field-select.js';
import { slugField } from './field-slug.js';
import { textField } from './field-text.js';

const FIELDS: Record<ColumnType, FieldType> = {
  text: textField,
  slug: slugField,
  select: selectField,
  datetime: datetimeField,
};

/** All column types the server knows. */
export const COLUMN_TYPES = Object.keys(FIELDS) as ColumnType[];

/** Whether a string names a known column type. */
export function isColumnType(type: string): type is ColumnType {
  return Object.hasOwn(FIELDS, type);
}

/** The implementation of a column type. */
export function fieldFor(type: ColumnType): FieldType {
  return FIELDS[type];
}
