import { useCallback, useEffect, useState } from 'react';
import type { HookDelivery } from '../../../common/publishing-contract.js';
import { describeError } from '../api/api-error.js';
import { publishingApi } from '../api/publishing-api.js';
import { formatTimestamp } from '../fields/datetime-value.js';
import { useT } from '../i18n/use-t.js';
import { IconRefresh } from './icons.js';
import { StatusBadge } from './status-badge.js';

/** How a delivery went, in words and a badge colour (by its id: delivered green, failed red...). */
const OUTCOME: Record<HookDelivery['status'], string> = {
  delivered: 'published',
  failed: 'rejected',
  gave_up: 'deleted',
  test_delivered: 'live',
  test_failed: 'rejected',
};

/** A hook's delivery log, newest first (time in the reader's zone, the receiver's answer, the attempt). */
export function HookDeliveries({ hookId }: { hookId: string }) {
  const t = useT('pages-hooks');
  const [deliveries, setDeliveries] = useState<HookDelivery[] | null>(null);
  const [total, setTotal] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const page = await publishingApi.deliveries(hookId, 20);
      setDeliveries(page.deliveries);
      setTotal(page.total);
      setProblem(null);
    } catch (error) {
      setProblem(describeError(error));
    }
  }, [hookId]);
  useEffect(() => void load(), [load]);
  if (problem) return <p className="field-error">{problem}</p>;
  if (!deliveries) return <p className="field-hint">{t('deliveries.loading')}</p>;
  return (
    <div className="hook-deliveries">
      <div className="hook-deliveries-head">
        <h3 className="hook-deliveries-title">
          {total > deliveries.length
            ? t('deliveries.titleNewest', { shown: deliveries.length, total })
            : t('deliveries.title', { total })}
        </h3>
        <button type="button" className="button button-small button-ghost" onClick={() => void load()}>
          <IconRefresh />
          {t('deliveries.refresh')}
        </button>
      </div>
      {deliveries.length === 0 ? (
        <p className="field-hint">{t('deliveries.none')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('deliveries.when')}</th>
              <th scope="col">{t('deliveries.outcome')}</th>
              <th scope="col">{t('deliveries.response')}</th>
              <th scope="col">{t('deliveries.attempt')}</th>
              <th scope="col">{t('deliveries.events')}</th>
              <th scope="col">{t('deliveries.error')}</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td>{formatTimestamp(delivery.at)}</td>
                <td>
                  <StatusBadge id={OUTCOME[delivery.status]} text={t(`deliveries.outcomes.${delivery.status}`)} />
                </td>
                <td>{delivery.response_code ?? '—'}</td>
                <td>{delivery.attempt}</td>
                <td>{delivery.events}</td>
                <td className="hook-error">{delivery.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
