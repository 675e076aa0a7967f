import type { ContentRow } from '../../../common/api-contract.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';

function Stamp({ label, at, by }: { label: string; at: string; by: string | null }) {
  return (
    <div className="details-item">
      <dt>{label}</dt>
      <dd>
        <time dateTime={`${at.replace(' ', 'T').slice(0, 19)}Z`} title={formatTimestamp(at)}>
          {timeAgo(at)}
        </time>
        {by && <span className="muted"> by {by}</span>}
      </dd>
    </div>
  );
}

/** Facts about a saved row: when and by whom it was created and changed, its id and API address. */
export function RowDetails({ row, type }: { row: ContentRow | null; type: string }) {
  if (!row) {
    return (
      <section className="card details" aria-label="Row details">
        <h2 className="card-title">Details</h2>
        <p className="muted details-note">
          Not saved yet. Press <kbd>Ctrl</kbd>+<kbd>S</kbd> or Save to create the row.
        </p>
      </section>
    );
  }
  const apiPath = `/api/cms/${encodeURIComponent(type)}/${encodeURIComponent(row.id)}`;
  return (
    <section className="card details" aria-label="Row details">
      <h2 className="card-title">Details</h2>
      <dl className="details-list">
        <Stamp label="Created" at={row.created_at} by={row.created_by} />
        <Stamp label="Updated" at={row.updated_at} by={row.updated_by} />
        <div className="details-item">
          <dt>ID</dt>
          <dd className="mono selectable">{row.id}</dd>
        </div>
        <div className="details-item">
          <dt>API</dt>
          <dd className="mono selectable">{apiPath}</dd>
        </div>
      </dl>
    </section>
  );
}
