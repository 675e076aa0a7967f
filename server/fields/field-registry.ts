import type { ColumnDescriptor, ColumnType } from '../../common/api-contract.js';
import type { FieldType, JsonSchema, SchemaUse } from './field.js';
import { blocksFieldWith } from './field-blocks.js';
import { booleanField } from './field-boolean.js';
import { dateField } from './field-date.js';
import { datetimeField } from './field-datetime.js';
import { imageField } from './field-image.js';
import { markdownField } from './field-markdown.js';
import { numberField } from './field-number.js';
import { relationField } from './field-relation.js';
import { richtextField } from './field-richtext.js';
import { selectField } from './field-select.js';
import { slugField } from './field-slug.js';
import { tagsField } from './field-tags.js';
import { textField } from './field-text.js';
import { textareaField } from './field-textarea.js';

const FIELDS: Record<ColumnType, FieldType> = {
  text: textField,
  slug: slugField,
  select: selectField,
  datetime: datetimeField,
  textarea: textareaField,
  markdown: markdownField,
  richtext: richtextField,
  number: numberField,
  boolean: booleanField,
  date: dateField,
  image: imageField,
  tags: tagsField,
  relation: relationField,
  // Parses each block's fields through this registry, which it gets passed rather than imports.
  blocks: blocksFieldWith({ fieldFor, isColumnType, columnSchema }),
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

/**
 * The JSON Schema of a column's values on one side of the API, with null where the column may be
 * empty: a column that is not required, on reads and JSON writes (a form sends an empty field
 * instead). Written to a JSON body, null clears the value.
 */
export function columnSchema(column: ColumnDescriptor, use: SchemaUse): JsonSchema {
  const field = fieldFor(column.type);
  const { description, ...schema } = field.jsonSchema(column, use);
  const described = (value: JsonSchema): JsonSchema => ({
    ...value,
    ...(column.label ? { title: column.label } : {}),
    ...(description === undefined ? {} : { description }),
  });
  if (column.required || use === 'form' || field.neverNull || schema.type === 'null') return described(schema);
  return described({ anyOf: [schema, { type: 'null' }] });
}
