import { parseNumberText } from '../../../common/number-syntax.js';
import { formatNumber } from '../i18n/formatters.js';
import { i18n } from '../i18n/i18n-instance.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText } from './field-values.js';
import { numberToBody, numberToText, stepNumberText } from './number-value.js';

/**
 * A text input with a numeric keyboard rather than `type=number`: the browser would report a
 * half-typed or mistyped number as empty, silently clearing the field on save. ArrowUp/ArrowDown step by one.
 */
function NumberInput({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  const text = asText(value);
  const notANumber = parseNumberText(text).kind === 'invalid';
  return (
    <input
      id={id}
      name={column.name}
      type="text"
      inputMode="decimal"
      className="input input-number"
      value={text}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
        event.preventDefault();
        onChange(stepNumberText(text, event.key === 'ArrowUp' ? 1 : -1));
      }}
      aria-describedby={describedBy}
      aria-invalid={invalid || notANumber || undefined}
      required={column.required}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

function NumberCell({ value }: FieldCellProps) {
  if (typeof value !== 'number') return <span className="cell-empty">—</span>;
  return <span className="cell-number">{formatNumber(value, { maximumFractionDigits: 10 })}</span>;
}

/** `number`: an integer or decimal; the form holds the typed text, the body gets a JSON number. */
export const numberField: FieldWidget = {
  typeName: () => i18n.t('fields:types.number'),
  Input: NumberInput,
  Cell: NumberCell,
  initial: () => '',
  fromRow: (value) => numberToText(value),
  toBody: (value) => numberToBody(asText(value)),
  editable: () => true,
  listable: true,
  compact: true,
};
