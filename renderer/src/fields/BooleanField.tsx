import { IconCheck, IconClose } from '../components/icons.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';

/** A switch (a checkbox with the switch role): on is true, off is false. */
function BooleanInput({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  const checked = value === true;
  const t = useT('fields');
  return (
    <span className="switch-row">
      <input
        id={id}
        name={column.name}
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        aria-checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
      />
      <span className="switch-state" aria-hidden="true">
        {checked ? t('common:yes') : t('common:no')}
      </span>
    </span>
  );
}

function BooleanCell({ value }: FieldCellProps) {
  const t = useT('fields');
  if (typeof value !== 'boolean') return <span className="cell-empty">—</span>;
  return value ? (
    <span className="cell-boolean is-true" title={t('common:yes')}>
      <IconCheck />
      <span className="visually-hidden">{t('common:yes')}</span>
    </span>
  ) : (
    <span className="cell-boolean is-false" title={t('common:no')}>
      <IconClose />
      <span className="visually-hidden">{t('common:no')}</span>
    </span>
  );
}

/**
 * `boolean`: a switch. A checkbox always has a state, so a new row sends false rather than nothing;
 * a saved row with no value yet shows off and sends nothing until the switch is used.
 */
export const booleanField: FieldWidget = {
  typeName: () => i18n.t('fields:types.boolean'),
  Input: BooleanInput,
  Cell: BooleanCell,
  initial: () => false,
  fromRow: (value) => value === true,
  toBody: (value) => value === true,
  editable: () => true,
  listable: true,
  compact: true,
};
