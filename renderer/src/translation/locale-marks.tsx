import { useId } from 'react';
import type { ColumnDescriptor, ContentRow } from '../../../common/api-contract.js';
import { widgetFor } from '../fields/field-registry.js';
import { useT } from '../i18n/use-t.js';
import { rowFallbacks } from './row-locale.js';

/**
 * A value's locale as a short tag (`DE`, its name for screen readers and on hover), and where the
 * value comes from when its own locale has none (`from`: that locale's name).
 */
export function LocaleMarks({ code, label, from }: { code: string; label: string; from?: string }) {
  const t = useT('translations');
  return (
    <>
      <span className="locale-tag" title={label}>
        <span aria-hidden="true">{code.toUpperCase()}</span>
        <span className="visually-hidden">{label}</span>
      </span>
      {from !== undefined && (
        <span className="badge badge-amber locale-fallback">{t('fallsBack', { language: from })}</span>
      )}
    </>
  );
}

/**
 * A field's value in the source locale of side-by-side translation, read-only, under its label and
 * locale: text as it is written (Markdown too), other values as the list shows them.
 */
export function SourceValue({
  column,
  code,
  row,
  labelOf,
}: {
  column: ColumnDescriptor;
  code: string;
  /** The row read in the source locale (undefined while it loads). */
  row: ContentRow | undefined;
  labelOf(code: string): string;
}) {
  const t = useT('common');
  const captionId = useId();
  const value = row?.[column.name];
  const from = rowFallbacks(row)[column.name];
  const Cell = widgetFor(column).Cell;
  const empty = value == null || value === '' || (Array.isArray(value) && value.length === 0);
  return (
    <figure className="translation-source" aria-labelledby={captionId} aria-busy={row === undefined || undefined}>
      <figcaption id={captionId} className="field-label-row">
        <span className="label">{column.label}</span>
        <span className="field-marks">
          <LocaleMarks code={code} label={labelOf(code)} from={from === undefined ? undefined : labelOf(from)} />
        </span>
      </figcaption>
      <div className="translation-source-value">
        {row === undefined ? (
          <span className="muted">{t('states.loading')}</span>
        ) : empty ? (
          <span className="cell-empty">{t('none')}</span>
        ) : typeof value === 'string' && column.type !== 'image' ? (
          <p className="translation-source-text">{value}</p>
        ) : (
          <Cell column={column} value={value} />
        )}
      </div>
    </figure>
  );
}
