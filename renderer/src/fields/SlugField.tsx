import { IconRefresh } from '../components/icons.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { slugify } from '../schema/slugify.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText, textToBody } from './field-values.js';

function SlugInput({ column, id, value, onChange, describedBy, invalid, derived, placeholder }: FieldInputProps) {
  const t = useT('fields');
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
        placeholder={placeholder}
        required={column.required}
        autoComplete="off"
        spellCheck={false}
      />
      {derived && (
        <button
          type="button"
          className="button button-ghost input-addon"
          onClick={derived.regenerate}
          title={t('slug.regenerateTitle', { label: column.label.toLowerCase(), source: derived.sourceLabel })}
          aria-label={t('slug.regenerateLabel', { label: column.label, source: derived.sourceLabel })}
          disabled={derived.following}
        >
          <IconRefresh />
          <span className="input-addon-text">{t('slug.regenerate')}</span>
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
  typeName: () => i18n.t('fields:types.slug'),
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
      ? i18n.t('fields:slug.follows', { source: derived.sourceLabel })
      : i18n.t('fields:slug.regenerateHint', { source: derived.sourceLabel });
  },
};
