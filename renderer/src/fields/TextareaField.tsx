import { i18n } from '../i18n/i18n-instance.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText, summarize, textToBody } from './field-values.js';

function TextareaInput({ column, id, value, onChange, describedBy, invalid, placeholder }: FieldInputProps) {
  return (
    <textarea
      id={id}
      name={column.name}
      className="input textarea"
      rows={4}
      value={asText(value)}
      onChange={(event) => onChange(event.target.value)}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      placeholder={placeholder}
      required={column.required}
      spellCheck
    />
  );
}

/** A long text in a list cell: its first line, cut with an ellipsis (the full text in the tooltip). */
export function LongTextCell({ value }: FieldCellProps) {
  const text = summarize(value).trim();
  if (text === '') return <span className="cell-empty">—</span>;
  const firstLine = text.split('\n', 1)[0];
  return (
    <span className="cell-text" title={text.length > 60 ? text.slice(0, 500) : undefined}>
      {firstLine}
    </span>
  );
}

/** `textarea`: plain multi-line text (a description, an address); not a list column. */
export const textareaField: FieldWidget = {
  typeName: () => i18n.t('fields:types.textarea'),
  Input: TextareaInput,
  Cell: LongTextCell,
  initial: () => '',
  fromRow: (value) => asText(value),
  toBody: (value) => textToBody(value),
  editable: () => true,
  listable: false,
};
