import { i18n } from '../i18n/i18n-instance.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText, summarize, textToBody } from './field-values.js';

function TextInput({ column, id, value, onChange, describedBy, invalid, placeholder }: FieldInputProps) {
  return (
    <input
      id={id}
      name={column.name}
      type="text"
      className="input"
      value={asText(value)}
      onChange={(event) => onChange(event.target.value)}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      placeholder={placeholder}
      required={column.required}
      autoComplete="off"
      spellCheck
    />
  );
}

function TextCell({ value }: FieldCellProps) {
  const text = summarize(value);
  if (text === '') return <span className="cell-empty">—</span>;
  return (
    <span className="cell-text" title={text.length > 60 ? text : undefined}>
      {text}
    </span>
  );
}

const isScalar = (value: unknown) =>
  value === null ||
  value === undefined ||
  typeof value === 'string' ||
  typeof value === 'number' ||
  typeof value === 'boolean';

function FallbackInput(props: FieldInputProps) {
  if (isScalar(props.value)) return <TextInput {...props} />;
  // Structured values (lists, related rows) cannot round-trip through a text box: show, don't edit.
  return (
    <input
      id={props.id}
      name={props.column.name}
      type="text"
      className="input"
      value={summarize(props.value)}
      readOnly
      aria-describedby={props.describedBy}
    />
  );
}

/** `text`: a single-line text input. */
export const textField: FieldWidget = {
  typeName: () => i18n.t('fields:types.text'),
  Input: TextInput,
  Cell: TextCell,
  initial: () => '',
  fromRow: (value) => asText(value),
  toBody: (value) => textToBody(value),
  editable: () => true,
  listable: true,
  // Beyond the title, extra text columns (a URL) make way for status, dates and relations.
  listRank: 3,
};

/**
 * The widget for a column type this editor does not know (from a newer server): a text input for
 * text-like values; structured values (lists, related rows) are shown read-only and sent back as they came.
 */
export const textFallbackField: FieldWidget = {
  typeName: () => i18n.t('fields:types.unknown'),
  Input: FallbackInput,
  Cell: TextCell,
  initial: () => '',
  fromRow: (value) => (isScalar(value) ? asText(value) : value),
  toBody: (value) => (isScalar(value) ? textToBody(value) : value),
  editable: isScalar,
  listable: true,
  hint: (column) => i18n.t('fields:fallbackHint', { type: column.type }),
};
