import type { MouseEvent } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { IconPlus } from '../components/icons.js';
import { TypeChangeLog } from '../components/type-change-log.js';
import { UnusedMediaNote } from '../components/unused-media-note.js';
import { widgetFor } from '../fields/field-registry.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useRowCounts } from '../hooks/use-row-counts.js';
import { useLinkProps, useNavigate } from '../routing/router.js';
import { routeHref } from '../routing/routes.js';

const numbers = new Intl.NumberFormat();
/** Field labels named in a type's summary before "and N more". */
const NAMED_FIELDS = 4;

function TypeRow({ type, rows }: { type: ContentTypeSummary; rows: number | undefined }) {
  const navigate = useNavigate();
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
        <span className="cell-mono">/api/cms/{type.table}</span>
      </td>
      <td>
        <span className="schema-fields-summary" title={type.columns.map((column) => column.label).join(', ')}>
          {named.join(', ')}
          {more > 0 ? ` and ${more} more` : ''}
        </span>
        <span className="schema-kinds">
          {kinds.map((kind) => (
            <span key={kind} className="type-chip">
              {kind}
            </span>
          ))}
        </span>
      </td>
      <td className="col-number">{rows === undefined ? '…' : numbers.format(rows)}</td>
      <td>
        <span className={`badge ${type.custom ? 'badge-violet' : 'badge-gray'}`}>
          <span className="badge-dot" aria-hidden="true" />
          {type.custom ? 'Custom' : 'Starter'}
        </span>
      </td>
    </tr>
  );
}

/** The Content types screen: every type with its fields and row count, and a way to make a new one. */
export function ContentTypesPage() {
  const navigate = useNavigate();
  const { types } = useContentTypes();
  const counts = useRowCounts(types);
  useDocumentTitle('Content types');
  const all = types ?? [];
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">Settings</p>
          <h1 className="page-title">Content types</h1>
          <p className="page-subtitle">
            The shape of your content: each type is a table of rows with its own fields. {all.length}{' '}
            {all.length === 1 ? 'type' : 'types'}.
          </p>
        </div>
        <div className="page-actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => navigate(routeHref({ name: 'content-type', slug: null }))}
          >
            <IconPlus />
            New content type
          </button>
        </div>
      </header>
      <div className="table-wrap">
        <table className="table schema-table">
          <caption className="visually-hidden">Content types</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="th-label">Content type</span>
              </th>
              <th scope="col">
                <span className="th-label">Fields</span>
              </th>
              <th scope="col" className="col-number">
                <span className="th-label">Rows</span>
              </th>
              <th scope="col">
                <span className="th-label">Kind</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {all.map((type) => (
              <TypeRow key={type.slug} type={type} rows={counts[type.table]} />
            ))}
          </tbody>
        </table>
      </div>
      <TypeChangeLog />
      <UnusedMediaNote />
    </div>
  );
}
