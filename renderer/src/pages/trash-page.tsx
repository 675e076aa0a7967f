import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import type { TrashEntry } from '../../../common/revision-contract.js';
import { describeError } from '../api/api-error.js';
import { useAuth } from '../api/auth-context.js';
import { revisionsApi } from '../api/revisions-api.js';
import { IconArrowLeft, IconRefresh } from '../components/icons.js';
import { EmptyState, LoadFailedState, LoadingState } from '../components/states.js';
import { useToast } from '../components/toasts.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';
import { forgetRows } from '../hooks/row-queries.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useT } from '../i18n/use-t.js';
import { useLinkProps, useNavigate } from '../routing/router.js';
import { type ListState, routeHref } from '../routing/routes.js';

/** Deleted rows listed at once (the API's largest page). */
const LIMIT = 100;

/**
 * A type's recently deleted rows, most recent first, each with who deleted it, when, and when it
 * is purged for good; **Restore** brings one back with its id and opens it.
 */
export function TrashPage({ type, list }: { type: ContentTypeSummary; list: ListState }) {
  const t = useT('pages-trash');
  useDocumentTitle(t('title'), type.title);
  const { me } = useAuth();
  const notify = useToast();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const backLink = useLinkProps(routeHref({ name: 'list', type: type.table, list }));
  const [restoring, setRestoring] = useState<string | null>(null);
  const { data, error, refetch } = useQuery({
    queryKey: ['trash', type.table],
    queryFn: () => revisionsApi.trash(type.table, LIMIT),
    gcTime: 0,
  });
  const mayRestore = me.can.change_any_row || me.can.change_own_rows;

  const restore = async (entry: TrashEntry) => {
    setRestoring(entry.id);
    try {
      const restored = await revisionsApi.restoreFromTrash(type.table, entry.id);
      forgetRows(queries, type.table);
      notify('success', t('restored', { title: entry.title ?? entry.id }));
      navigate(routeHref({ name: 'row', type: type.table, id: restored.row.id, list }));
    } catch (failure) {
      notify('error', describeError(failure));
      void refetch();
    } finally {
      setRestoring(null);
    }
  };

  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <a {...backLink} className="back-link">
            <IconArrowLeft />
            {t('back')}
          </a>
          <p className="eyebrow">{type.title}</p>
          <h1 className="page-title">{t('title')}</h1>
          <p className="page-subtitle">{data ? t('retention', { count: data.retention_days }) : '\u00a0'}</p>
        </div>
      </header>
      {error && <LoadFailedState title={t('loadFailed')} error={error} onRetry={() => void refetch()} />}
      {!data && !error && <LoadingState label={t('loading')} />}
      {data && data.total === 0 && (
        <EmptyState title={t('empty.title')}>
          {t('empty.body', { type: type.title, count: data.retention_days })}
        </EmptyState>
      )}
      {data && data.rows.length > 0 && (
        // A phone is narrower than the dates and the Restore button: the table scrolls inside its card.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways needs focus for the arrow keys to scroll it
        <section className="table-wrap" data-scrolls="inline" aria-label={t('title')} tabIndex={0}>
          <table className="trash-table">
            <thead>
              <tr>
                <th scope="col">{t('columns.title')}</th>
                <th scope="col">{t('columns.deleted')}</th>
                <th scope="col">{t('columns.purged')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((entry) => (
                <tr key={entry.id}>
                  <td>{entry.title ?? <span className="mono">{entry.id}</span>}</td>
                  <td>
                    <time title={formatTimestamp(entry.deleted_at)}>{timeAgo(entry.deleted_at)}</time>
                    {entry.deleted_by && <span className="muted"> {t('by', { name: entry.deleted_by })}</span>}
                  </td>
                  <td>{formatTimestamp(entry.purge_at)}</td>
                  <td className="trash-actions">
                    {mayRestore && (
                      <button
                        type="button"
                        className="button"
                        onClick={() => void restore(entry)}
                        disabled={restoring !== null}
                        aria-label={t('restoreLabel', { title: entry.title ?? entry.id })}
                      >
                        <IconRefresh />
                        {t('common:actions.restore')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.total > data.rows.length && (
            <p className="muted">{t('partial', { shown: data.rows.length, total: data.total })}</p>
          )}
        </section>
      )}
    </div>
  );
}
