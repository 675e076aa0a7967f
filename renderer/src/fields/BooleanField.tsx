import { IconCheck, IconClose } from '../components/icons.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';

/** A switch (a checkbox with the switch role): on is true, off is false. */
function BooleanInput({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  const checked = value === true;
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
        {checked ? 'Yes' : 'No'}
      </span>
    </span>
  );
}

function BooleanCell({ value }: FieldCellProps) {
  if (typeof value !== 'boolean') return <span className="cell-empty">—</span>;
  return value ? (
    <span className="cell-boolean is-true" title="Yes">
      <IconCheck />
      <span className="visually-hidden">Yes</span>
    </span>
  ) : (
    <span className="cell-boolean is-false" title="No">
      <IconClose />
      <span className="visually-hidden">No</span>
    </span>
  );
}

/**
 * `boolean`: a switch. A checkbox always has a state, so a new row sends false rather than nothing;
 * a saved row with no value yet shows off and sends nothing until the switch is used.
 */
export const booleanField: FieldWidget = {
  typeName: 'Yes / no',
  Input: BooleanInput,
  Cell: BooleanCell,
  initial: () => false,
  fromRow: (value) => value === true,
  toBody: (value) => value === true,
  editable: () => true,
  listable: true,
  compact: true,
};
