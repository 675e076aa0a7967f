import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContentRow, ContentTypeSummary } from '../../../common/api-contract.js';
import type { RevisionSummary } from '../../../common/revision-contract.js';
import { describeError } from '../api/api-error.js';
import { revisionsApi } from '../api/revisions-api.js';
import { formatTimestamp } from '../fields/datetime-value.js';
import { useT } from '../i18n/use-t.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { IconRefresh } from './icons.js';
import { ModalDialog } from './modal-dialog.js';
import { type ComparedField, differs, RevisionValue } from './revision-values.js';
import { LoadingState } from './states.js';
import { useToast } from './toasts.js';

/** What the comparison needs: the row now, the revision, and whether this person may restore it. */
export interface RevisionCompareProps {
  type: ContentTypeSummary;
  row: ContentRow;
  revision: RevisionSummary;
  mayRestore: boolean;
  /** The form holds changes not saved yet (a restore replaces them). */
  dirty: boolean;
  onClose(): void;
  onRestored(row: ContentRow): void;
}

/**
 * A revision beside the row as it is now, field by field (changed fields marked, text word by
 * word), with **Restore this version** behind a confirmation.
 */
export function RevisionCompare({ type, row, revision, mayRestore, dirty, onClose, onRestored }: RevisionCompareProps) {
  const notify = useToast();
  const t = useT('components-compare');
  const componentsT = useT('components');
  const [confirming, setConfirming] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { data, error } = useQuery({
    queryKey: ['revision', type.table, row.id, revision.id],
    queryFn: () => revisionsApi.get(type.table, row.id, revision.id),
  });

  const restore = async () => {
    setRestoring(true);
    try {
      const restored = await revisionsApi.restore(type.table, row.id, revision.id);
      const when = formatTimestamp(revision.at);
      notify(
        'success',
        restored.dropped.length > 0
          ? t('restoredDropped', { when, fields: restored.dropped.join(', ') })
          : t('restored', { when }),
      );
      onRestored(restored.row);
    } catch (failure) {
      setProblem(describeError(failure));
      setConfirming(false);
    } finally {
      setRestoring(false);
    }
  };

  const fields: ComparedField[] = data
    ? [
        ...type.columns.map((column) => ({
          name: column.name,
          label: column.label,
          column,
          old: data.row[column.name],
          current: row[column.name],
        })),
        { name: 'meta', label: componentsT('history.seo'), column: null, old: data.row.meta, current: row.meta },
      ]
    : [];
  const changed = fields.filter(differs).length;

  return (
    <>
      <ModalDialog
        title={t('title', { when: formatTimestamp(revision.at) })}
        onDismiss={restoring ? () => {} : onClose}
        actions={
          <>
            <button type="button" className="button" onClick={onClose} disabled={restoring}>
              {t('common:actions.close')}
            </button>
            {mayRestore && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => setConfirming(true)}
                disabled={!data || restoring || changed === 0}
              >
                <IconRefresh />
                {t('restore')}
              </button>
            )}
          </>
        }
      >
        {problem && (
          <p className="revision-problem" role="alert">
            {problem}
          </p>
        )}
        {error && <p role="alert">{describeError(error)}</p>}
        {!data && !error && <LoadingState label={t('loading')} />}
        {data && (
          <>
            <p className="muted">
              {changed === 0 ? t('same') : t('differ', { count: changed })}
              {data.dropped.length > 0 && ` ${t('dropped', { fields: data.dropped.join(', ') })}`}
            </p>
            <table className="revision-compare">
              <thead>
                <tr>
                  <th scope="col">{t('field')}</th>
                  <th scope="col">{t('thisVersion')}</th>
                  <th scope="col">{t('now')}</th>
                </tr>
              </thead>
              <tbody>
                {fields.map((field) => (
                  <tr key={field.name} className={differs(field) ? 'is-changed' : undefined}>
                    <th scope="row">{field.label}</th>
                    <td>
                      <RevisionValue field={field} side="old" />
                    </td>
                    <td>
                      <RevisionValue field={field} side="new" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </ModalDialog>
      {confirming && (
        <ConfirmDialog
          title={t('confirmTitle')}
          confirmLabel={t('common:actions.restore')}
          tone="default"
          busy={restoring}
          onConfirm={() => void restore()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t(dirty ? 'confirmBodyDirty' : 'confirmBody', { when: formatTimestamp(revision.at) })}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
