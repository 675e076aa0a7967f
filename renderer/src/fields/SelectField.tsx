import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { StatusBadge } from '../components/status-badge.js';
import { Select, type SelectOption } from '../components/ui/select.js';
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
  const choices: SelectOption[] = [
    ...(!column.required || current === '' ? [{ value: '', label: column.required ? t('select.choose') : '—' }] : []),
    ...(current !== '' && !known ? [{ value: current, label: current }] : []),
    ...options.map((option) => ({ value: option.id, label: option.text })),
  ];
  return (
    <Select
      id={id}
      value={current}
      options={choices}
      onChange={onChange}
      aria-describedby={describedBy}
      aria-invalid={invalid}
      required={column.required}
    />
  );
}

function SelectCell({ column, value }: FieldCellProps) {
  const id = asText(value);
  if (id === '') return <span className="cell-empty">—</span>;
  return <StatusBadge id={id} text={optionText(column, id)} />;
}

/** `select`: a Select of the options' `text`; the list shows the value as a badge. */
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
