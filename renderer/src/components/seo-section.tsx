import { useId, useState } from 'react';
import type { SeoMeta } from '../../../common/api-contract.js';
import type { MetaKey } from '../../../common/row-fields.js';
import { IconGlobe } from './icons.js';

/** Lengths search engines show before cutting off; past them the counter turns amber. */
const ADVISED_LENGTH: Readonly<Record<MetaKey, number | null>> = { title: 60, description: 160, keywords: null };
const LABELS: Readonly<Record<MetaKey, string>> = {
  title: 'Meta title',
  description: 'Meta description',
  keywords: 'Meta keywords',
};
const HINTS: Readonly<Record<MetaKey, string>> = {
  title: 'Shown as the headline in search results. Leave empty to use the row’s title.',
  description: 'The summary under the headline in search results.',
  keywords: 'Comma-separated, e.g. local, harbour, events.',
};

/** Props of the SEO section. */
export interface SeoSectionProps {
  meta: SeoMeta;
  errors: Partial<Record<MetaKey, string>>;
  onChange(key: MetaKey, value: string): void;
  /** What a search engine shows when the meta title is empty. */
  fallbackTitle: string;
  slug: string;
}

/**
 * Search-engine listing: a preview of how the row appears in results, and on demand the meta title,
 * description and keywords. Opens by itself when the server finds a problem in them.
 */
export function SeoSection({ meta, errors, onChange, fallbackTitle, slug }: SeoSectionProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const hasErrors = Object.keys(errors).length > 0;
  const expanded = open || hasErrors;
  const title = meta.title.trim() || fallbackTitle || 'Untitled';
  const description = meta.description.trim();

  return (
    <section className="card seo" aria-labelledby={`${panelId}-heading`}>
      <header className="card-header">
        <div>
          <h2 id={`${panelId}-heading`} className="card-title">
            <IconGlobe /> Search engine listing
          </h2>
          <p className="card-subtitle">SEO meta: how this row appears in search results and link previews.</p>
        </div>
        <button
          type="button"
          className="button button-small"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={() => setOpen(!expanded)}
          disabled={hasErrors}
        >
          {expanded ? 'Hide SEO fields' : 'Edit SEO'}
        </button>
      </header>
      <div className="seo-preview">
        <p className="seo-preview-url">{slug ? `…/${slug}` : '…/'}</p>
        <p className="seo-preview-title">{title}</p>
        <p className={description ? 'seo-preview-description' : 'seo-preview-description is-empty'}>
          {description || 'No meta description yet. Search engines will pick a snippet from the page.'}
        </p>
      </div>
      {expanded && (
        <div id={panelId} className="seo-fields">
          {(['title', 'description', 'keywords'] as const).map((key) => (
            <MetaField key={key} name={key} value={meta[key]} error={errors[key]} onChange={onChange} />
          ))}
        </div>
      )}
    </section>
  );
}

function MetaField({
  name,
  value,
  error,
  onChange,
}: {
  name: MetaKey;
  value: string;
  error: string | undefined;
  onChange: SeoSectionProps['onChange'];
}) {
  const id = `meta-${name}`;
  const advised = ADVISED_LENGTH[name];
  const describedBy = [error ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(' ');
  const common = {
    id,
    name: `meta[${name}]`,
    className: 'input',
    value,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
  } as const;
  return (
    <div className="field" data-invalid={error ? 'true' : undefined}>
      <div className="field-label-row">
        <label htmlFor={id} className="label">
          {LABELS[name]}
        </label>
        {advised !== null && (
          <span className={value.length > advised ? 'char-count is-over' : 'char-count'}>
            {value.length} / {advised}
          </span>
        )}
      </div>
      {name === 'description' ? (
        <textarea {...common} rows={3} onChange={(event) => onChange(name, event.target.value)} />
      ) : (
        <input {...common} type="text" autoComplete="off" onChange={(event) => onChange(name, event.target.value)} />
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {LABELS[name]} {error}
        </p>
      )}
      <p id={`${id}-hint`} className="field-hint">
        {HINTS[name]}
      </p>
    </div>
  );
}
