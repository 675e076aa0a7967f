import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { AUDIT_ACTIONS, type AuditEntry } from '../../../common/audit-contract.js';
import { describeError } from '../api/api-error.js';
import { type AuditQuery, auditApi } from '../api/audit-api.js';
import { useAuth } from '../api/auth-context.js';
import { Pagination } from '../components/pagination.js';
import { EmptyState, ErrorState, LoadingState } from '../components/states.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';

/** Events a page shows at first; the API gives at most 100. */
const PAGE_SIZE = 50;
const PAGE_SIZES = [25, 50, 100];

/** Each action code in words. */
const ACTION_TEXT: Record<string, string> = {
  first_run: 'First account made',
  'sign_in.succeeded': 'Signed in',
  'sign_in.failed': 'Sign-in failed',
  'sign_in.locked': 'Sign-in refused (too many failures)',
  'two_factor.enrolled': 'Two-factor sign-in turned on',
  'two_factor.disabled': 'Two-factor sign-in turned off',
  'two_factor.reset': 'Two-factor sign-in reset',
  'account.created': 'Account added',
  'account.role_changed': 'Role changed',
  'account.types_changed': 'Content types changed',
  'account.disabled': 'Account disabled',
  'account.enabled': 'Account enabled',
  'account.password_changed': 'Password changed',
  'account.deleted': 'Account deleted',
  'token.created': 'API token made',
  'token.revoked': 'API token revoked',
  'hook.created': 'Hook added',
  'hook.changed': 'Hook changed',
  'hook.deleted': 'Hook removed',
  'content_type.created': 'Content type added',
  'content_type.changed': 'Content type changed',
  'content_type.deleted': 'Content type deleted',
  'content_type.starters_chosen': 'Starter content types chosen',
  'backup.restored': 'Backup restored',
};

const NO_FILTER: AuditQuery = { action: '', actor: '', target: '', since: '', until: '' };

/** Settings › Audit (admins): who did what, from where and when, newest first. */
export function AuditPage() {
  useDocumentTitle('Audit log');
  const { me } = useAuth();
  if (!me.can.manage_accounts || me.content_types !== null) {
    return <ErrorState title="Only admins read the audit log" message="Ask an admin what happened." />;
  }
  return <AuditLog />;
}

function AuditLog() {
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
          <p className="eyebrow eyebrow-top">Settings</p>
          <h1 className="page-title">Audit log</h1>
          <p className="page-subtitle">
            Sign-ins, account, token, hook and content-type changes and restores: who, from which address, when.
            {data ? ` Events are kept for ${data.retention_days} days.` : ''}
          </p>
        </div>
      </header>
      <section className="card audit-card" aria-labelledby="audit-heading">
        <h2 id="audit-heading" className="card-title">
          Events
        </h2>
        <form className="audit-filters" onSubmit={apply} aria-label="Filter the audit log">
          <div className="audit-filter">
            <label htmlFor="audit-action">Action</label>
            <select id="audit-action" className="input select" {...field('action')}>
              <option value="">Any</option>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {ACTION_TEXT[action] ?? action}
                </option>
              ))}
            </select>
          </div>
          <div className="audit-filter">
            <label htmlFor="audit-actor">Who</label>
            <input id="audit-actor" className="input" placeholder="Account or token" {...field('actor')} />
          </div>
          <div className="audit-filter">
            <label htmlFor="audit-target">Target</label>
            <input
              id="audit-target"
              className="input"
              placeholder="Account, token, hook or type"
              {...field('target')}
            />
          </div>
          <div className="audit-filter">
            <label htmlFor="audit-since">From (UTC)</label>
            <input id="audit-since" className="input" type="date" {...field('since')} />
          </div>
          <div className="audit-filter">
            <label htmlFor="audit-until">To (UTC)</label>
            <input id="audit-until" className="input" type="date" {...field('until')} />
          </div>
          <div className="audit-filter-actions">
            <button type="submit" className="button button-primary">
              Filter
            </button>
            {filtered && (
              <button type="button" className="button" onClick={clear}>
                Clear
              </button>
            )}
          </div>
        </form>
        {error && (
          <ErrorState
            title="Couldn’t load the audit log"
            message={describeError(error)}
            action={
              <button type="button" className="button" onClick={() => void refetch()}>
                Try again
              </button>
            }
          />
        )}
        {!data && !error && <LoadingState label="Loading the audit log…" />}
        {data && data.total === 0 && (
          <EmptyState title={filtered ? 'No event matches' : 'Nothing recorded yet'}>
            {filtered
              ? 'Change or clear the filters.'
              : 'Sign-ins and changes to accounts, tokens and hooks show here.'}
          </EmptyState>
        )}
        {data && data.events.length > 0 && (
          <div className={isFetching ? 'table-wrap is-busy' : 'table-wrap'} aria-busy={isFetching}>
            <table className="trash-table audit-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">What</th>
                  <th scope="col">Who</th>
                  <th scope="col">Address</th>
                  <th scope="col">Target</th>
                  <th scope="col">Details</th>
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
  const detail = Object.entries(event.detail)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
  return (
    <tr data-testid="audit-event">
      <td>
        <time title={formatTimestamp(event.at)}>{timeAgo(event.at)}</time>
      </td>
      <td title={event.action}>{ACTION_TEXT[event.action] ?? event.action}</td>
      <td>{event.actor ?? <span className="muted">no one signed in</span>}</td>
      <td className="mono">{event.address ?? <span className="muted">command line</span>}</td>
      <td>{event.target ?? ''}</td>
      <td className="audit-detail">{detail}</td>
    </tr>
  );
}
