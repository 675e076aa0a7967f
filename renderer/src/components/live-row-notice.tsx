import { useState } from 'react';
import type { ContentRow, ContentTypeSummary } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { useAuth } from '../api/auth-context.js';
import { type ChangeEntry, useChanges } from '../api/change-events.js';
import { currentLanguage } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { IconAlert, IconClose } from './icons.js';

/** Props of the notice that someone else saved the open row. */
export interface LiveRowNoticeProps {
  type: ContentTypeSummary;
  /** The saved version the form builds on (null for a row not saved yet: nobody else can change it). */
  row: ContentRow | null;
  /** The locale the form shows the row in (its version is read in it too). */
  locale?: string;
}

/** What the notice says: who, and which fields differ from the version the form builds on. */
interface SeenChange {
  by: string | null;
  deleted: boolean;
  fields: string[];
}

/** The labels of the columns whose values differ between two versions of a row. */
export function changedFieldLabels(type: ContentTypeSummary, mine: ContentRow, theirs: ContentRow): string[] {
  return type.columns
    .filter((column) => JSON.stringify(mine[column.name] ?? null) !== JSON.stringify(theirs[column.name] ?? null))
    .map((column) => column.label);
}

/**
 * Says, above the open row, when someone else saves or deletes it ("Ada changed Title and Body a
 * moment ago"), the fields found by comparing their version with the one the form builds on. The
 * form keeps this person's edits: a save then meets theirs in the conflict dialog.
 */
export function LiveRowNotice({ type, row, locale }: LiveRowNoticeProps) {
  const api = useApi();
  const { me } = useAuth();
  const t = useT('pages-row');
  const tc = useT('components');
  const [seen, setSeen] = useState<SeenChange | null>(null);

  useChanges((change: ChangeEntry) => {
    if (!row || change.type !== type.table || change.id !== row.id) return;
    if (change.by !== null && change.by === me.name) return;
    if (change.action === 'delete') {
      setSeen({ by: change.by, deleted: true, fields: [] });
      return;
    }
    api.getRow(type.table, row.id, undefined, locale).then(
      (read) => {
        const theirs = read.rows[0];
        if (theirs) setSeen({ by: change.by, deleted: false, fields: changedFieldLabels(type, row, theirs) });
      },
      () => setSeen({ by: change.by, deleted: false, fields: [] }),
    );
  });

  if (!seen) return null;
  const fields = new Intl.ListFormat(currentLanguage(), { type: 'conjunction' }).format(seen.fields);
  const name = seen.by ?? t('live.someone');
  const message = seen.deleted
    ? t('live.deleted', { name })
    : seen.fields.length > 0
      ? t('live.changed', { name, fields })
      : t('live.saved', { name });
  return (
    <div className="banner banner-info" role="status" data-live-notice="">
      <IconAlert />
      <div className="banner-text">
        <p>{message}</p>
      </div>
      <button type="button" className="banner-close" onClick={() => setSeen(null)} aria-label={tc('banner.dismiss')}>
        <IconClose />
      </button>
    </div>
  );
}
