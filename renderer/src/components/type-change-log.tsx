import { useQuery } from '@tanstack/react-query';
import type { TypeChange, TypeChangeListResponse } from '../../../common/revision-contract.js';
import { describeError } from '../api/api-error.js';
import { call } from '../api/auth-api.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';

/** Changes listed on the Content types screen. */
const LIMIT = 10;

/** A change in one line: what it did to the type. */
export function describeTypeChange(change: TypeChange): string {
  const { detail } = change;
  const t = i18n.t;
  if (change.action === 'create')
    return t('pages-types:typeChanges.created', { title: detail.title?.to ?? change.type });
  if (change.action === 'delete')
    return t('pages-types:typeChanges.deleted', { title: detail.title?.from ?? change.type });
  const parts: string[] = [];
  if (detail.title) parts.push(t('pages-types:typeChanges.renamedTo', { title: detail.title.to }));
  if (detail.added) parts.push(t('pages-types:typeChanges.added', { fields: detail.added.join(', ') }));
  if (detail.dropped) parts.push(t('pages-types:typeChanges.removed', { fields: detail.dropped.join(', ') }));
  if (detail.renamed) {
    const renamed = detail.renamed.map(({ from, to }) => t('pages-types:typeChanges.renamedField', { from, to }));
    parts.push(t('pages-types:typeChanges.renamed', { fields: renamed.join(', ') }));
  }
  if (detail.changed) parts.push(t('pages-types:typeChanges.changed', { fields: detail.changed.join(', ') }));
  if (detail.dropped_values && detail.dropped_values.length > 0) {
    const values = detail.dropped_values.map(({ column, locale, count }) =>
      t('pages-types:typeChanges.droppedValue', { column, locale, rows: count }),
    );
    parts.push(t('pages-types:typeChanges.droppedValues', { values: values.join(', ') }));
  }
  if (detail.preview_path) parts.push(t('pages-types:typeChanges.previewPath'));
  if (detail.type) {
    parts.push(
      t(detail.type.to === 'single' ? 'pages-types:typeChanges.madeSingle' : 'pages-types:typeChanges.madeCollection'),
    );
  }
  return t('pages-types:typeChanges.summary', {
    type: change.type,
    changes: parts.join('; ') || t('pages-types:typeChanges.saved'),
  });
}

/** The latest content-type changes (what changed, who, when), newest first. */
export function TypeChangeLog() {
  const t = useT('pages-types');
  const componentsT = useT('components');
  const { data, error } = useQuery({
    queryKey: ['content-type-changes'],
    queryFn: () => call<TypeChangeListResponse>('GET', `/cms-content-changes?limit=${LIMIT}`),
    gcTime: 0,
  });
  return (
    <section className="card type-changes" aria-label={t('typeChanges.label')}>
      <h2 className="card-title">{t('typeChanges.title')}</h2>
      {error && <p className="muted">{describeError(error)}</p>}
      {data && data.total === 0 && <p className="muted">{t('typeChanges.none')}</p>}
      {data && data.changes.length > 0 && (
        <ol className="type-change-list">
          {data.changes.map((change) => (
            <li key={change.id}>
              <span>{describeTypeChange(change)}</span>
              <span className="muted">
                {' · '}
                <time title={formatTimestamp(change.at)}>{timeAgo(change.at)}</time>
                {change.by && ` ${componentsT('details.by', { name: change.by })}`}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
