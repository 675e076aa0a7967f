import { useEffect, useState } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { useContentTypes } from './content-types.js';

/** Row counts per type table (`limit=0` asks only for `total`), refreshed whenever rows change. */
export function useRowCounts(types: ContentTypeSummary[] | null): Record<string, number> {
  const api = useApi();
  const { dataVersion } = useContentTypes();
  const [counts, setCounts] = useState<Record<string, number>>({});
  useEffect(() => {
    void dataVersion;
    if (!types) return;
    const controller = new AbortController();
    for (const type of types) {
      api.listRows(type.table, { limit: 0 }, controller.signal).then(
        (list) => setCounts((all) => ({ ...all, [type.table]: list.total })),
        () => {},
      );
    }
    return () => controller.abort();
  }, [api, types, dataVersion]);
  return counts;
}
