import type { ColumnDescriptor, ColumnType } from '../../../common/api-contract.js';
import { booleanField } from './BooleanField.js';
import { blocksFieldWith } from './blocks-widget.js';
import { dateField } from './DateField.js';
import { datetimeField } from './DatetimeField.js';
import type { FieldWidget } from './field-types.js';
import { imageField } from './ImageField.js';
import { markdownField } from './MarkdownField.js';
import { numberField } from './NumberField.js';
import { relationField } from './RelationField.js';
import { richtextField } from './RichtextField.js';
import { selectField } from './SelectField.js';
import { slugField } from './SlugField.js';
import { tagsField } from './TagsField.js';
import { textareaField } from './TextareaField.js';
import { textFallbackField, textField } from './TextField.js';

/**
 * The widget of each column type, keyed like the server's field registry. Typed by the contract's
 * ColumnType, so a type added on the server fails the type check here until it has a widget. The
 * order is the order of the content-type editor's "Field type" list.
 */
const WIDGETS: Readonly<Record<ColumnType, FieldWidget>> = {
  text: textField,
  textarea: textareaField,
  markdown: markdownField,
  richtext: richtextField,
  number: numberField,
  boolean: booleanField,
  date: dateField,
  datetime: datetimeField,
  select: selectField,
  slug: slugField,
  tags: tagsField,
  image: imageField,
  relation: relationField,
  // Blocks draw their own columns with these same widgets: the lookup is passed in, so no module cycle forms.
  blocks: blocksFieldWith((column) => widgetFor(column)),
};

/** The widget for a column: its type's entry, or the text fallback for a type the editor does not know. */
export function widgetFor(column: Pick<ColumnDescriptor, 'type'>): FieldWidget {
  return Object.hasOwn(WIDGETS, column.type) ? WIDGETS[column.type] : textFallbackField;
}

/** Whether the editor has a dedicated widget for a column type. */
export function isKnownType(type: string): type is ColumnType {
  return Object.hasOwn(WIDGETS, type);
}

/** Every column type with the name the content-type editor shows for it, in menu order. */
export function columnTypeChoices(): { type: ColumnType; name: string }[] {
  return (Object.keys(WIDGETS) as ColumnType[]).map((type) => ({ type, name: WIDGETS[type].typeName() }));
}
