import { type UseQueryResult, useQueries } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { queryKeys } from './row-queries.js';

/**
 * Row counts per type table (`limit=0` asks only for `total`), reloaded after writes to that type.
 * The sidebar and the content-types screen share one request per type; a count that fails is left out.
 */
export function useRowCounts(types: ContentTypeSummary[] | null): Record<string, number> {
  const api = useApi();
  const combine = useCallback(
    (results: UseQueryResult<number>[]) => {
      const counts: Record<string, number> = {};
      results.forEach((result, index) => {
        const table = types?.[index]?.table;
        if (table !== undefined && result.data !== undefined) counts[table] = result.data;
      });
      return counts;
    },
    [types],
  );
  return useQueries({
    queries: (types ?? []).map((type) => ({
      queryKey: queryKeys.rowCount(type.table),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api.listRows(type.table, { limit: 0 }, signal).then((list) => list.total),
    })),
    combine,
  });
}
