import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { AUDIT_ACTIONS, type AuditEntry } from '../../../common/audit-contract.js';
import { type AuditQuery, auditApi } from '../api/audit-api.js';
import { useAuth } from '../api/auth-context.js';
import { Pagination } from '../components/pagination.js';
import { EmptyState, ErrorState, LoadFailedState, LoadingState } from '../components/states.js';
import { Select } from '../components/ui/select.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';

/** Events a page shows at first; the API gives at most 100. */
const PAGE_SIZE = 50;
const PAGE_SIZES = [25, 50, 100];

/** An action code in words (the code itself for one this editor does not know yet). */
function actionText(action: string): string {
  const key = `pages-audit:actions.${action}`;
  return i18n.exists(key) ? String(i18n.t(key as 'pages-audit:actions.first_run')) : action;
}

const NO_FILTER: AuditQuery = { action: '', actor: '', target: '', since: '', until: '' };

/** Settings › Audit (admins): who did what, from where and when, newest first. */
export function AuditPage() {
  const t = useT('pages-audit');
  useDocumentTitle(t('title'));
  const { me } = useAuth();
  if (!me.can.manage_accounts || me.content_types !== null) {
    return <ErrorState title={t('adminsOnly.title')} message={t('adminsOnly.message')} />;
  }
  return <AuditLog />;
}

function AuditLog() {
  const t = useT('pages-audit');
  const [draft, setDraft] = useState<AuditQuery>(NO_FILTER);
  const [query, setQuery] = useState<AuditQuery>(NO_FILTER);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const offset = (page - 1) * pageSize;
  const { data, error, refetch, isFetching } = useQuery({
    queryKey: ['audit', query, pageSize, offset],
    queryFn: () => auditApi.list(query, pageSize, offset),
    gcTime: 0,
    placeholderData: (previous) => previous,
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setQuery(draft);
    setPage(1);
  };
  const clear = () => {
    setDraft(NO_FILTER);
    setQuery(NO_FILTER);
    setPage(1);
  };
  const field = (name: keyof AuditQuery) => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });
  const filtered = Object.values(query).some((value) => value !== '');

  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">{t('common:settings')}</p>
          <h1 className="page-title">{t('title')}</h1>
          <p className="page-subtitle">
            {t('subtitle')}
            {data ? ` ${t('retention', { count: data.retention_days })}` : ''}
          </p>
        </div>
      </header>
      <section className="card audit-card" aria-labelledby="audit-heading">
        <h2 id="audit-heading" className="card-title">
          {t('events')}
        </h2>
        <form className="audit-filters" onSubmit={apply} aria-label={t('filters.label')}>
          <div className="audit-filter">
            <label htmlFor="audit-action">{t('filters.action')}</label>
            <Select
              id="audit-action"
              value={draft.action}
              options={[
                { value: '', label: t('filters.any') },
                ...AUDIT_ACTIONS.map((action) => ({ value: action, label: actionText(action) })),
              ]}
              onChange={(action) => setDraft({ ...draft, action })}
            />
          </div>
          <div className="audit-filter">
            <label htmlFor="audit-actor">{t('columns.who')}</label>
            <input id="audit-actor" className="input" placeholder={t('filters.actor')} {...field('actor')} />
          </div>
          <div className="audit-filter">
            <label htmlFor="audit-target">{t('columns.target')}</label>
            <input id="audit-target" className="input" placeholder={t('filters.target')} {...field('target')} />
          </div>
          <div className="audit-filter">
            <label htmlFor="audit-since">{t('filters.since')}</label>
            <input id="audit-since" className="input" type="date" {...field('since')} />
          </div>
          <div className="audit-filter">
            <label htmlFor="audit-until">{t('filters.until')}</label>
            <input id="audit-until" className="input" type="date" {...field('until')} />
          </div>
          <div className="audit-filter-actions">
            <button type="submit" className="button button-primary">
              {t('filters.apply')}
            </button>
            {filtered && (
              <button type="button" className="button" onClick={clear}>
                {t('filters.clear')}
              </button>
            )}
          </div>
        </form>
        {error && <LoadFailedState title={t('loadFailed')} error={error} onRetry={() => void refetch()} />}
        {!data && !error && <LoadingState label={t('loading')} />}
        {data && data.total === 0 && (
          <EmptyState title={filtered ? t('empty.noMatch') : t('empty.none')}>
            {filtered ? t('empty.noMatchBody') : t('empty.noneBody')}
          </EmptyState>
        )}
        {data && data.events.length > 0 && (
          <div className={isFetching ? 'table-wrap is-busy' : 'table-wrap'} aria-busy={isFetching}>
            <table className="trash-table audit-table">
              <thead>
                <tr>
                  <th scope="col">{t('columns.when')}</th>
                  <th scope="col">{t('columns.what')}</th>
                  <th scope="col">{t('columns.who')}</th>
                  <th scope="col">{t('columns.address')}</th>
                  <th scope="col">{t('columns.target')}</th>
                  <th scope="col">{t('columns.details')}</th>
                </tr>
              </thead>
              <tbody>
                {data.events.map((event) => (
                  <AuditRow key={event.id} event={event} />
                ))}
              </tbody>
            </table>
            <Pagination
              page={page}
              offset={data.offset}
              pageSize={pageSize}
              pageSizes={PAGE_SIZES}
              count={data.events.length}
              filtered={data.total}
              total={data.total}
              onPage={setPage}
              onPageSize={(size) => {
                setPageSize(size);
                setPage(1);
              }}
            />
          </div>
        )}
      </section>
    </div>
  );
}

function AuditRow({ event }: { event: AuditEntry }) {
  const t = useT('pages-audit');
  const detail = Object.entries(event.detail)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
  return (
    <tr data-testid="audit-event">
      <td>
        <time title={formatTimestamp(event.at)}>{timeAgo(event.at)}</time>
      </td>
      <td title={event.action}>{actionText(event.action)}</td>
      <td>{event.actor ?? <span className="muted">{t('noActor')}</span>}</td>
      <td className="mono">{event.address ?? <span className="muted">{t('commandLine')}</span>}</td>
      <td>{event.target ?? ''}</td>
      <td className="audit-detail">{detail}</td>
    </tr>
  );
}
