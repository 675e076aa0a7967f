import { Trans } from 'react-i18next';
import type { ContentRow } from '../../../common/api-contract.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';
import { useT } from '../i18n/use-t.js';

function Stamp({ label, at, by }: { label: string; at: string; by: string | null }) {
  const t = useT('components');
  return (
    <div className="details-item">
      <dt>{label}</dt>
      <dd>
        <time dateTime={`${at.replace(' ', 'T').slice(0, 19)}Z`} title={formatTimestamp(at)}>
          {timeAgo(at)}
        </time>
        {by && <span className="muted"> {t('details.by', { name: by })}</span>}
      </dd>
    </div>
  );
}

/** Facts about a saved row: when and by whom it was created and changed, its id and API address. */
export function RowDetails({ row, type }: { row: ContentRow | null; type: string }) {
  const t = useT('components');
  if (!row) {
    return (
      <section className="card details" aria-label={t('details.label')}>
        <h2 className="card-title">{t('details.title')}</h2>
        <p className="muted details-note">
          <Trans t={t} i18nKey="details.notSaved" components={{ kbd: <kbd /> }} />
        </p>
      </section>
    );
  }
  const apiPath = `/api/cms/${encodeURIComponent(type)}/${encodeURIComponent(row.id)}`;
  return (
    <section className="card details" aria-label={t('details.label')}>
      <h2 className="card-title">{t('details.title')}</h2>
      <dl className="details-list">
        <Stamp label={t('details.created')} at={row.created_at} by={row.created_by} />
        <Stamp label={t('details.updated')} at={row.updated_at} by={row.updated_by} />
        <div className="details-item">
          <dt>{t('details.id')}</dt>
          <dd className="mono selectable">{row.id}</dd>
        </div>
        <div className="details-item">
          <dt>{t('details.api')}</dt>
          <dd className="mono selectable">{apiPath}</dd>
        </div>
      </dl>
    </section>
  );
}
