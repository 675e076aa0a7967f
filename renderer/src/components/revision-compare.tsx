import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContentRow, ContentTypeSummary } from '../../../common/api-contract.js';
import type { RevisionSummary } from '../../../common/revision-contract.js';
import { describeError } from '../api/api-error.js';
import { revisionsApi } from '../api/revisions-api.js';
import { formatTimestamp } from '../fields/datetime-value.js';
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
      const dropped =
        restored.dropped.length > 0 ? ` (${restored.dropped.join(', ')} no longer exist and were left out)` : '';
      notify('success', `Restored the version of ${formatTimestamp(revision.at)}${dropped}`);
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
        { name: 'meta', label: 'SEO', column: null, old: data.row.meta, current: row.meta },
      ]
    : [];
  const changed = fields.filter(differs).length;

  return (
    <>
      <ModalDialog
        title={`Version of ${formatTimestamp(revision.at)}`}
        onDismiss={restoring ? () => {} : onClose}
        actions={
          <>
            <button type="button" className="button" onClick={onClose} disabled={restoring}>
              Close
            </button>
            {mayRestore && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => setConfirming(true)}
                disabled={!data || restoring || changed === 0}
              >
                <IconRefresh />
                Restore this version
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
        {!data && !error && <LoadingState label="Loading the version…" />}
        {data && (
          <>
            <p className="muted">
              {changed === 0
                ? 'This version is the same as the row now.'
                : `${changed} field${changed === 1 ? '' : 's'} differ from the row now.`}
              {data.dropped.length > 0 && ` It also held ${data.dropped.join(', ')}, which the type no longer has.`}
            </p>
            <table className="revision-compare">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">This version</th>
                  <th scope="col">Now</th>
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
          title="Restore this version?"
          confirmLabel="Restore"
          tone="default"
          busy={restoring}
          onConfirm={() => void restore()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The row gets the values it had on {formatTimestamp(revision.at)}
            {dirty ? ', and your unsaved changes are lost' : ''}. The row as it is now stays in its history, so this can
            be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
