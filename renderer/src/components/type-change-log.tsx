import { useQuery } from '@tanstack/react-query';
import type { TypeChange, TypeChangeListResponse } from '../../../common/revision-contract.js';
import { describeError } from '../api/api-error.js';
import { call } from '../api/auth-api.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';

/** Changes listed on the Content types screen. */
const LIMIT = 10;

/** A change in one line: what it did to the type. */
export function describeTypeChange(change: TypeChange): string {
  const { detail } = change;
  if (change.action === 'create') return `Created ${detail.title?.to ?? change.type}`;
  if (change.action === 'delete') return `Deleted ${detail.title?.from ?? change.type}`;
  const parts: string[] = [];
  if (detail.title) parts.push(`renamed to “${detail.title.to}”`);
  if (detail.added) parts.push(`added ${detail.added.join(', ')}`);
  if (detail.dropped) parts.push(`removed ${detail.dropped.join(', ')}`);
  if (detail.renamed) parts.push(`renamed ${detail.renamed.map(({ from, to }) => `${from} to ${to}`).join(', ')}`);
  if (detail.changed) parts.push(`changed ${detail.changed.join(', ')}`);
  if (detail.preview_path) parts.push('changed the preview address');
  return `${change.type}: ${parts.join('; ') || 'saved'}`;
}

/** The latest content-type changes (what changed, who, when), newest first. */
export function TypeChangeLog() {
  const { data, error } = useQuery({
    queryKey: ['content-type-changes'],
    queryFn: () => call<TypeChangeListResponse>('GET', `/cms-content-changes?limit=${LIMIT}`),
    gcTime: 0,
  });
  return (
    <section className="card type-changes" aria-label="Recent changes to content types">
      <h2 className="card-title">Recent changes</h2>
      {error && <p className="muted">{describeError(error)}</p>}
      {data && data.total === 0 && <p className="muted">No content type was changed yet.</p>}
      {data && data.changes.length > 0 && (
        <ol className="type-change-list">
          {data.changes.map((change) => (
            <li key={change.id}>
              <span>{describeTypeChange(change)}</span>
              <span className="muted">
                {' · '}
                <time title={formatTimestamp(change.at)}>{timeAgo(change.at)}</time>
                {change.by && ` by ${change.by}`}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
