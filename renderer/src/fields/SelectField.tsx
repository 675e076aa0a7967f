import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { StatusBadge } from '../components/status-badge.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText, textToBody } from './field-values.js';

/** Display text of a select value: the option's `text`, or the raw id when it is not an option. */
export function optionText(column: ColumnDescriptor, value: string): string {
  return column.options?.find((option) => option.id === value)?.text ?? value;
}

function SelectInput({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  const current = asText(value);
  const options = column.options ?? [];
  const known = options.some((option) => option.id === current);
  const t = useT('fields');
  return (
    <select
      id={id}
      name={column.name}
      className="input select"
      value={current}
      onChange={(event) => onChange(event.target.value)}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      required={column.required}
    >
      {(!column.required || current === '') && <option value="">{column.required ? t('select.choose') : '—'}</option>}
      {current !== '' && !known && <option value={current}>{current}</option>}
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.text}
        </option>
      ))}
    </select>
  );
}

function SelectCell({ column, value }: FieldCellProps) {
  const id = asText(value);
  if (id === '') return <span className="cell-empty">—</span>;
  return <StatusBadge id={id} text={optionText(column, id)} />;
}

/** `select`: a dropdown of the options' `text`; the list shows the value as a badge. */
export const selectField: FieldWidget = {
  typeName: () => i18n.t('fields:types.select'),
  Input: SelectInput,
  Cell: SelectCell,
  // A required choice starts on its first option (a news row starts as a draft).
  initial: (column) => (column.required ? (column.options?.[0]?.id ?? '') : ''),
  fromRow: (value) => asText(value),
  toBody: (value) => textToBody(value),
  editable: () => true,
  listable: true,
  listRank: 1,
  compact: true,
};
