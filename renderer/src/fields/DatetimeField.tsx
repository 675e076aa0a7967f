import { IconClock } from '../components/icons.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { formatWallTime, fromInputValue, toInputValue, wireFromDate } from './datetime-value.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText, textToBody } from './field-values.js';

function DatetimeInput({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  const t = useT('fields');
  return (
    <div className="input-group">
      <input
        id={id}
        name={column.name}
        type="datetime-local"
        step={1}
        className="input"
        value={toInputValue(asText(value))}
        onChange={(event) => onChange(fromInputValue(event.target.value))}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        required={column.required}
      />
      <button
        type="button"
        className="button button-ghost input-addon"
        onClick={() => onChange(wireFromDate(new Date()))}
        aria-label={t('datetime.now', { label: column.label })}
        title={t('datetime.nowTitle')}
      >
        <IconClock />
      </button>
    </div>
  );
}

function DatetimeCell({ value }: FieldCellProps) {
  const text = asText(value);
  if (text === '') return <span className="cell-empty">—</span>;
  return (
    <time className="cell-date" dateTime={text.replace(' ', 'T')} title={text}>
      {formatWallTime(text)}
    </time>
  );
}

/**
 * `datetime`: a date-time picker (`datetime-local` with seconds) that reads and writes the API's
 * `YYYY-MM-DD HH:MM:SS`. A required datetime starts at the current time on a new row.
 */
export const datetimeField: FieldWidget = {
  typeName: () => i18n.t('fields:types.datetime'),
  Input: DatetimeInput,
  Cell: DatetimeCell,
  initial: (column, now) => (column.required ? wireFromDate(now) : ''),
  fromRow: (value) => asText(value),
  toBody: (value) => textToBody(value),
  editable: () => true,
  listable: true,
  compact: true,
};
