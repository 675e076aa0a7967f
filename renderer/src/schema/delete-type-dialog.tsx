import { useEffect, useState } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';

const numbers = new Intl.NumberFormat();

/**
 * Asks before deleting a content type. It counts the rows first: an empty type just goes; one
 * with rows says how many are deleted with it, and the confirmation sends `force`.
 */
export function DeleteTypeDialog({
  type,
  busy,
  onConfirm,
  onCancel,
}: {
  type: ContentTypeSummary;
  busy: boolean;
  onConfirm(force: boolean): void;
  onCancel(): void;
}) {
  const api = useApi();
  const [rows, setRows] = useState<number | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.listRows(type.table, { limit: 0 }, controller.signal).then(
      (list) => setRows(list.total),
      // Unknown: ask as if it had rows, so nothing is deleted unannounced.
      () => setRows(-1),
    );
    return () => controller.abort();
  }, [api, type.table]);

  const counted = rows !== null;
  const hasRows = rows !== 0;
  const rowWords = rows === 1 ? 'its row' : rows !== null && rows > 0 ? `its ${numbers.format(rows)} rows` : 'its rows';
  return (
    <ConfirmDialog
      title={`Delete the content type “${type.title}”?`}
      confirmLabel={counted && hasRows ? `Delete content type and ${rowWords}` : 'Delete content type'}
      busy={busy || !counted}
      onConfirm={() => onConfirm(hasRows)}
      onCancel={onCancel}
    >
      {!counted ? (
        <p>Counting its rows…</p>
      ) : hasRows ? (
        <p>
          <strong>
            {rows !== null && rows > 0
              ? `${type.title} has ${numbers.format(rows)} ${rows === 1 ? 'row' : 'rows'}.`
              : `${type.title} may have rows.`}
          </strong>{' '}
          Deleting the type deletes {rowWords} and the <code>{type.table}</code> table with {rows === 1 ? 'it' : 'them'}
          , for good. <code>/api/cms/{type.table}</code> stops answering.
        </p>
      ) : (
        <p>
          The type and its empty <code>{type.table}</code> table are deleted; <code>/api/cms/{type.table}</code> stops
          answering. This cannot be undone.
        </p>
      )}
    </ConfirmDialog>
  );
}
