import { IconRefresh } from '../components/icons.js';
import { slugify } from '../schema/slugify.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText, textToBody } from './field-values.js';

function SlugInput({ column, id, value, onChange, describedBy, invalid, derived }: FieldInputProps) {
  return (
    <div className="input-group">
      <input
        id={id}
        name={column.name}
        type="text"
        className="input input-mono"
        value={asText(value)}
        onChange={(event) => onChange(event.target.value)}
        // A hand-typed slug is shown as the server will store it once the user moves on.
        onBlur={(event) => {
          const normalized = slugify(event.target.value);
          if (normalized !== event.target.value && normalized !== '') onChange(normalized);
        }}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        required={column.required}
        autoComplete="off"
        spellCheck={false}
      />
      {derived && (
        <button
          type="button"
          className="button button-ghost input-addon"
          onClick={derived.regenerate}
          title={`Generate the ${column.label.toLowerCase()} from ${derived.sourceLabel} again`}
          aria-label={`Regenerate ${column.label} from ${derived.sourceLabel}`}
          disabled={derived.following}
        >
          <IconRefresh />
          <span className="input-addon-text">Regenerate</span>
        </button>
      )}
    </div>
  );
}

function SlugCell({ value }: FieldCellProps) {
  const text = asText(value);
  return text === '' ? <span className="cell-empty">—</span> : <span className="cell-mono">{text}</span>;
}

/**
 * `slug`: a URL slug that follows its parent column while the user types, until they edit it by
 * hand; "Regenerate" makes it follow again. Slugs are made exactly as the server makes them.
 */
export const slugField: FieldWidget = {
  typeName: 'Slug',
  Input: SlugInput,
  Cell: SlugCell,
  initial: () => '',
  fromRow: (value) => asText(value),
  toBody: (value) => textToBody(value),
  editable: () => true,
  listable: true,
  listRank: 4,
  derive: {
    sourceOf: (column) => column.parent,
    compute: (source) => slugify(asText(source)),
  },
  hint(_column, derived) {
    if (!derived) return undefined;
    return derived.following
      ? `Follows ${derived.sourceLabel} as you type. Edit it to choose your own.`
      : `Use Regenerate to make it follow ${derived.sourceLabel} again.`;
  },
};
