import { IconAlert, IconClose } from '../components/icons.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';
import { useT } from '../i18n/use-t.js';
import type { DraftChange } from './type-draft.js';
import type { TypeEditor } from './use-type-editor.js';

/**
 * Says that someone else changed or deleted the type after it was opened (who and when, when the
 * server knows), with "Reload" to load their version; this person's edits stay in the form until
 * then, and are listed in the kept-changes note after.
 */
export function TypeConflictNotice({ editor }: { editor: TypeEditor }) {
  const t = useT('schema');
  const { conflict } = editor;
  if (!conflict) return null;
  const who = conflict.lastChange?.by ?? null;
  const when = conflict.lastChange ? timeAgo(conflict.lastChange.at) : '';
  const deleted = conflict.current === null;
  const message = deleted
    ? who
      ? t('conflict.deletedBy', { name: who, when })
      : t('conflict.deletedBySomeone')
    : who
      ? t('conflict.changedBy', { name: who, when })
      : t('conflict.changedBySomeone');
  return (
    <div className="banner banner-error" role="alert" data-type-conflict="">
      <IconAlert />
      <div className="banner-text">
        <p>
          <strong>{deleted ? t('conflict.deletedTitle') : t('conflict.title')}</strong>
        </p>
        <p title={conflict.lastChange ? formatTimestamp(conflict.lastChange.at) : undefined}>{message}</p>
        {!deleted && (
          <p className="banner-actions">
            <button type="button" className="button button-small" onClick={editor.reload}>
              {t('conflict.reload')}
            </button>
          </p>
        )}
      </div>
    </div>
  );
}

/** A kept change in words: "Title", "Field “Body” (changed)". */
function describeChange(change: DraftChange, t: ReturnType<typeof useT>): string {
  if (change.part !== 'field') {
    return t(
      change.part === 'title'
        ? 'conflict.changeTitle'
        : change.part === 'kind'
          ? 'conflict.changeKind'
          : change.part === 'previewPath'
            ? 'conflict.changePreviewPath'
            : 'conflict.changeOrder',
    );
  }
  const { label } = change;
  if (change.change === 'added') return t('conflict.field.added', { label });
  if (change.change === 'removed') return t('conflict.field.removed', { label });
  return t('conflict.field.changed', { label });
}

/**
 * After "Reload": the changes this person had not saved, listed until dismissed, with "Re-apply my
 * changes" to put them over the version now loaded.
 */
export function KeptChangesNotice({ editor }: { editor: TypeEditor }) {
  const t = useT('schema');
  const tc = useT('components');
  const { kept } = editor;
  if (!kept) return null;
  return (
    <div className="banner banner-info" role="status" data-kept-changes="">
      <IconAlert />
      <div className="banner-text">
        <p>{kept.reapplied ? t('conflict.reapplied') : t('conflict.kept')}</p>
        <ul aria-label={t('conflict.keptList')}>
          {/* Two fields may share a label: their line is said once. */}
          {[...new Set(kept.changes.map((change) => describeChange(change, t)))].map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
        {!kept.reapplied && (
          <p className="banner-actions">
            <button type="button" className="button button-small" onClick={editor.reapply}>
              {t('conflict.reapply')}
            </button>
          </p>
        )}
      </div>
      <button type="button" className="banner-close" onClick={editor.dismissKept} aria-label={tc('banner.dismiss')}>
        <IconClose />
      </button>
    </div>
  );
}
