import { normalizeDate } from '../../../common/datetime-syntax.js';
import { formatDate as formatDateIn } from '../i18n/formatters.js';
import { i18n } from '../i18n/i18n-instance.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText, textToBody } from './field-values.js';

/** `2025-03-04` as the editor's language writes it (`4 Mar 2025`); anything else as it is. */
export function formatDate(text: string): string {
  const date = normalizeDate(text);
  if (date === null) return text;
  const [year, month, day] = date.split('-').map(Number);
  // A calendar date has no time zone: format it in UTC so it never shifts a day.
  return formatDateIn(new Date(Date.UTC(year, month - 1, day)), { dateStyle: 'medium', timeZone: 'UTC' });
}

function DateInput({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  return (
    <input
      id={id}
      name={column.name}
      type="date"
      className="input input-date"
      value={asText(value)}
      onChange={(event) => onChange(event.target.value)}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      required={column.required}
    />
  );
}

function DateCell({ value }: FieldCellProps) {
  const text = asText(value);
  if (text === '') return <span className="cell-empty">—</span>;
  return (
    <time className="cell-date" dateTime={text}>
      {formatDate(text)}
    </time>
  );
}

/** `date`: a calendar date; the native date picker reads and writes the API's `YYYY-MM-DD`. */
export const dateField: FieldWidget = {
  typeName: () => i18n.t('fields:types.date'),
  Input: DateInput,
  Cell: DateCell,
  initial: () => '',
  fromRow: (value) => asText(value),
  toBody: (value) => textToBody(value),
  editable: () => true,
  listable: true,
  compact: true,
};
