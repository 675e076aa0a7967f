import { useCallback, useEffect, useState } from 'react';
import type { HookDelivery } from '../../../common/publishing-contract.js';
import { describeError } from '../api/api-error.js';
import { publishingApi } from '../api/publishing-api.js';
import { formatTimestamp } from '../fields/datetime-value.js';
import { IconRefresh } from './icons.js';
import { StatusBadge } from './status-badge.js';

/** How a delivery went, in words and a badge colour (by its id: delivered green, failed red...). */
const OUTCOME: Record<HookDelivery['status'], { id: string; text: string }> = {
  delivered: { id: 'published', text: 'Delivered' },
  failed: { id: 'rejected', text: 'Failed, will retry' },
  gave_up: { id: 'deleted', text: 'Gave up' },
  test_delivered: { id: 'live', text: 'Test delivered' },
  test_failed: { id: 'rejected', text: 'Test failed' },
};

/** A hook's delivery log, newest first (time in the reader's zone, the receiver's answer, the attempt). */
export function HookDeliveries({ hookId }: { hookId: string }) {
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
  if (!deliveries) return <p className="field-hint">Loading deliveries…</p>;
  return (
    <div className="hook-deliveries">
      <div className="hook-deliveries-head">
        <h3 className="hook-deliveries-title">
          Deliveries {total > deliveries.length ? `(newest ${deliveries.length} of ${total})` : `(${total})`}
        </h3>
        <button type="button" className="button button-small button-ghost" onClick={() => void load()}>
          <IconRefresh />
          Refresh
        </button>
      </div>
      {deliveries.length === 0 ? (
        <p className="field-hint">Nothing sent yet. Changes are sent a few seconds after they are saved.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Outcome</th>
              <th scope="col">Response</th>
              <th scope="col">Attempt</th>
              <th scope="col">Events</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td>{formatTimestamp(delivery.at)}</td>
                <td>
                  <StatusBadge id={OUTCOME[delivery.status].id} text={OUTCOME[delivery.status].text} />
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
