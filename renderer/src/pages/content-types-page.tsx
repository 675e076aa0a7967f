import type { MouseEvent } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { IconPlus } from '../components/icons.js';
import { TypeChangeLog } from '../components/type-change-log.js';
import { UnusedMediaNote } from '../components/unused-media-note.js';
import { widgetFor } from '../fields/field-registry.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useRowCounts } from '../hooks/use-row-counts.js';
import { useFormatters } from '../i18n/formatters.js';
import { useT } from '../i18n/use-t.js';
import { useLinkProps, useNavigate } from '../routing/router.js';
import { routeHref } from '../routing/routes.js';

/** Field labels named in a type's summary before "and N more". */
const NAMED_FIELDS = 4;

function TypeRow({ type, rows }: { type: ContentTypeSummary; rows: number | undefined }) {
  const navigate = useNavigate();
  const t = useT('pages-types');
  const format = useFormatters();
  const href = routeHref({ name: 'content-type', slug: type.slug });
  const link = useLinkProps(href);
  const named = type.columns.slice(0, NAMED_FIELDS).map((column) => column.label);
  const more = type.columns.length - named.length;
  const kinds = [...new Set(type.columns.map((column) => widgetFor(column).typeName()))];
  const open = (event: MouseEvent) => {
    if ((event.target as HTMLElement).closest('a, button') || window.getSelection()?.toString()) return;
    navigate(href);
  };
  return (
    <tr className="table-row" onClick={open}>
      <td className="col-primary">
        <a {...link} className="row-link">
          {type.title}
        </a>
        {/* i18n-exempt: an API path */}
        <span className="cell-mono">/api/cms/{type.table}</span>
      </td>
      <td>
        <span className="schema-fields-summary" title={type.columns.map((column) => column.label).join(', ')}>
          {more > 0 ? t('list.fieldsMore', { fields: named.join(', '), count: more }) : named.join(', ')}
        </span>
        <span className="schema-kinds">
          {kinds.map((kind) => (
            <span key={kind} className="type-chip">
              {kind}
            </span>
          ))}
        </span>
      </td>
      <td className="col-number">{rows === undefined ? '…' : format.number(rows)}</td>
      <td>
        <span className={`badge ${type.custom ? 'badge-violet' : 'badge-gray'}`}>
          <span className="badge-dot" aria-hidden="true" />
          {type.custom ? t('list.custom') : t('list.starter')}
        </span>
        {type.type === 'single' && ' '}
        {type.type === 'single' && (
          <span className="badge badge-gray">
            <span className="badge-dot" aria-hidden="true" />
            {t('list.single')}
          </span>
        )}
      </td>
    </tr>
  );
}

/** The Content types screen: every type with its fields and row count, and a way to make a new one. */
export function ContentTypesPage() {
  const navigate = useNavigate();
  const t = useT('pages-types');
  const { types } = useContentTypes();
  const counts = useRowCounts(types);
  useDocumentTitle(t('list.title'));
  const all = types ?? [];
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">{t('common:settings')}</p>
          <h1 className="page-title">{t('list.title')}</h1>
          <p className="page-subtitle">{t('list.subtitle', { count: all.length })}</p>
        </div>
        <div className="page-actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => navigate(routeHref({ name: 'content-type', slug: null }))}
          >
            <IconPlus />
            {t('list.new')}
          </button>
        </div>
      </header>
      {/* A phone is narrower than the four columns: the table scrolls inside its card, a region a
          keyboard can reach and scroll. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways needs focus for the arrow keys to scroll it */}
      <section className="table-wrap" data-scrolls="inline" aria-label={t('list.title')} tabIndex={0}>
        <table className="table schema-table">
          <caption className="visually-hidden">{t('list.title')}</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="th-label">{t('list.columns.type')}</span>
              </th>
              <th scope="col">
                <span className="th-label">{t('list.columns.fields')}</span>
              </th>
              <th scope="col" className="col-number">
                <span className="th-label">{t('list.columns.rows')}</span>
              </th>
              <th scope="col">
                <span className="th-label">{t('list.columns.kind')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {all.map((type) => (
              <TypeRow key={type.slug} type={type} rows={counts[type.table]} />
            ))}
          </tbody>
        </table>
      </section>
      <TypeChangeLog />
      <UnusedMediaNote />
    </div>
  );
}
