import type { ColumnDescriptor } from '../../../server/contract/api-contract.js';
import { datetimeField } from './DatetimeField.js';
import type { FieldWidget } from './field-types.js';
import { selectField } from './SelectField.js';
import { slugField } from './SlugField.js';
import { textFallbackField, textField } from './TextField.js';

/** The widget of each column type the editor knows, keyed like the server's field registry. */
const WIDGETS: Readonly<Record<string, FieldWidget>> = {
  text: textField,
  slug: slugField,
  select: selectField,
  datetime: datetimeField,
};

/** The widget for a column: its type's entry, or the text fallback for a type the editor does not know. */
export function widgetFor(column: Pick<ColumnDescriptor, 'type'>): FieldWidget {
  return Object.hasOwn(WIDGETS, column.type) ? WIDGETS[column.type] : textFallbackField;
}

/** Whether the editor has a dedicated widget for a column type. */
export function isKnownType(type: string): boolean {
  return Object.hasOwn(WIDGETS, type);
}
