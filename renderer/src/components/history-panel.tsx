import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContentRow, ContentTypeSummary } from '../../../common/api-contract.js';
import type { RevisionAction, RevisionSummary } from '../../../common/revision-contract.js';
import { describeError } from '../api/api-error.js';
import { revisionsApi } from '../api/revisions-api.js';
import { formatDay, formatTimestamp, timeAgo } from '../fields/datetime-value.js';
import { currentLanguage, i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { LazyScreen, lazyNamed } from './lazy-screen.js';

// The compare (with its word diff, the `diff` package) loads as its own chunk when a revision is opened.
const RevisionCompare = lazyNamed(() => import('./revision-compare.js'), 'RevisionCompare', ['components-compare']);

/** Revisions listed at first, and added by each "Show older". */
const PAGE = 10;

/** What a revision did, in words. */
export function actionLabel(action: RevisionAction): string {
  return i18n.t(`components:history.actions.${action}`);
}

/**
 * What a revision did, named for why it was written: a scheduled change, a restore (with the day of
 * the version it put back), an import; a person's edit by what it did.
 */
export function revisionLabel(revision: RevisionSummary): string {
  if (revision.origin === 'schedule') return i18n.t('components:history.origins.schedule');
  if (revision.origin === 'import') return i18n.t('components:history.origins.import');
  if (revision.origin === 'restore' && revision.restored_from !== null) {
    return i18n.t('components:history.origins.restoreFrom', { date: formatDay(revision.restored_from) });
  }
  return actionLabel(revision.action);
}

/**
 * The locales whose own values a revision set or changed (`Languages: Deutsch, English`), by
 * `labelOf`; null for a revision of shared fields only, or of a type without translatable fields.
 */
export function revisionLocales(revision: RevisionSummary, labelOf: (code: string) => string): string | null {
  const codes = Object.keys(revision.locales ?? {});
  if (codes.length === 0) return null;
  const languages = new Intl.ListFormat(currentLanguage(), { type: 'conjunction' }).format(codes.map(labelOf));
  return i18n.t('components:history.inLocales', { count: codes.length, languages });
}

/** Props of the History panel of a saved row. */
export interface HistoryPanelProps {
  type: ContentTypeSummary;
  row: ContentRow;
  mayRestore: boolean;
  dirty: boolean;
  onRestored(row: ContentRow): void;
  /** A locale's name, for the locales each change touched (its code without one). */
  localeLabel?(code: string): string;
}

/**
 * The row's changes, newest first: what happened, who, when, which fields. Choosing one compares
 * it with the row as it is now, and offers to restore it.
 */
export function HistoryPanel({
  type,
  row,
  mayRestore,
  dirty,
  onRestored,
  localeLabel = (code) => code,
}: HistoryPanelProps) {
  const t = useT('components');
  const [limit, setLimit] = useState(PAGE);
  const [open, setOpen] = useState<RevisionSummary | null>(null);
  // Read again whenever the row was saved (its updated_at moves).
  const { data, error } = useQuery({
    queryKey: ['history', type.table, row.id, row.updated_at, limit],
    queryFn: () => revisionsApi.list(type.table, row.id, limit),
    placeholderData: (previous) => previous,
  });
  const label = (name: string) =>
    name === 'meta' ? t('history.seo') : (type.columns.find((column) => column.name === name)?.label ?? name);

  return (
    <section className="card history" aria-label={t('history.title')}>
      <h2 className="card-title">{t('history.title')}</h2>
      {error && <p className="muted">{describeError(error)}</p>}
      {!data && !error && <p className="muted">{t('common:states.loading')}</p>}
      {data && data.total === 0 && <p className="muted">{t('history.none')}</p>}
      {data && data.revisions.length > 0 && (
        <ol className="history-list">
          {data.revisions.map((revision, index) => {
            const locales = revisionLocales(revision, localeLabel);
            return (
              <li key={revision.id}>
                <button type="button" className="history-item" onClick={() => setOpen(revision)}>
                  <span className="history-what">
                    {revisionLabel(revision)}
                    {index === 0 && data.revisions.length > 0 && (
                      <span className="muted"> · {t('history.current')}</span>
                    )}
                  </span>
                  <span className="history-when muted">
                    <time title={formatTimestamp(revision.at)}>{timeAgo(revision.at)}</time>
                    {revision.by && ` ${t('details.by', { name: revision.by })}`}
                  </span>
                  {revision.fields.length > 0 && revision.action !== 'create' && (
                    <span className="history-fields">{revision.fields.map(label).join(', ')}</span>
                  )}
                  {locales && <span className="history-fields history-locales">{locales}</span>}
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {data && data.total > data.revisions.length && (
        <button type="button" className="button button-ghost" onClick={() => setLimit((n) => Math.min(n + PAGE, 100))}>
          {t('history.showOlder', { count: data.total - data.revisions.length })}
        </button>
      )}
      {open && (
        <LazyScreen>
          <RevisionCompare
            type={type}
            row={row}
            revision={open}
            mayRestore={mayRestore}
            dirty={dirty}
            onClose={() => setOpen(null)}
            onRestored={(restored) => {
              setOpen(null);
              onRestored(restored);
            }}
          />
        </LazyScreen>
      )}
    </section>
  );
}
