import { useId, useState } from 'react';
import type { SeoMeta } from '../../../common/api-contract.js';
import type { MetaKey } from '../../../common/row-fields.js';
import { useT } from '../i18n/use-t.js';
import { IconGlobe } from './icons.js';

/** Lengths search engines show before cutting off; past them the counter turns amber. */
const ADVISED_LENGTH: Readonly<Record<MetaKey, number | null>> = { title: 60, description: 160, keywords: null };

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
  const t = useT('components');
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const hasErrors = Object.keys(errors).length > 0;
  const expanded = open || hasErrors;
  const title = meta.title.trim() || fallbackTitle || t('seo.untitled');
  const description = meta.description.trim();

  return (
    <section className="card seo" aria-labelledby={`${panelId}-heading`}>
      <header className="card-header">
        <div>
          <h2 id={`${panelId}-heading`} className="card-title">
            <IconGlobe /> {t('seo.heading')}
          </h2>
          <p className="card-subtitle">{t('seo.subtitle')}</p>
        </div>
        <button
          type="button"
          className="button button-small"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={() => setOpen(!expanded)}
          disabled={hasErrors}
        >
          {expanded ? t('seo.hide') : t('seo.edit')}
        </button>
      </header>
      <div className="seo-preview">
        <p className="seo-preview-url">{slug ? `…/${slug}` : '…/'}</p>
        <p className="seo-preview-title">{title}</p>
        <p className={description ? 'seo-preview-description' : 'seo-preview-description is-empty'}>
          {description || t('seo.noDescription')}
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
  const t = useT('components');
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
          {t(`seo.labels.${name}`)}
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
          {t(`seo.labels.${name}`)} {error}
        </p>
      )}
      <p id={`${id}-hint`} className="field-hint">
        {t(`seo.hints.${name}`)}
      </p>
    </div>
  );
}
