import { useEffect, useState } from 'react';
import { Trans } from 'react-i18next';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { formatNumber } from '../i18n/formatters.js';
import { useT } from '../i18n/use-t.js';

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
  const t = useT('schema');
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
  const known = rows !== null && rows > 0;
  const values = { type: type.title, table: type.table, count: known ? rows : 0, formatted: formatNumber(rows ?? 0) };
  return (
    <ConfirmDialog
      title={t('deleteType.title', { title: type.title })}
      confirmLabel={
        counted && hasRows
          ? known
            ? t('deleteType.confirmRows', values)
            : t('deleteType.confirmSomeRows')
          : t('deleteType.confirm')
      }
      busy={busy || !counted}
      onConfirm={() => onConfirm(hasRows)}
      onCancel={onCancel}
    >
      {!counted ? (
        <p>{t('deleteType.counting')}</p>
      ) : hasRows ? (
        <p>
          <strong>{known ? t('deleteType.hasRows', values) : t('deleteType.mayHaveRows', values)}</strong>{' '}
          <Trans
            t={t}
            i18nKey={known ? 'deleteType.bodyRows' : 'deleteType.bodySomeRows'}
            values={values}
            count={values.count}
            components={{ code: <code /> }}
          />
        </p>
      ) : (
        <p>
          <Trans t={t} i18nKey="deleteType.bodyEmpty" values={values} components={{ code: <code /> }} />
        </p>
      )}
    </ConfirmDialog>
  );
}
