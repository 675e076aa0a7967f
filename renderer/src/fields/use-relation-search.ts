import { skipToken, useQuery } from '@tanstack/react-query';
import type { ContentRow, ContentTypeSummary, ListQuery } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { queryKeys } from '../hooks/row-queries.js';
import { isSearchable, titleColumnOf } from '../schema/type-facts.js';

/** Rows a picker shows at once; typing narrows them. */
export const PICKER_LIMIT = 20;
/** Pause after a keystroke before the search runs. */
const SEARCH_DELAY_MS = 180;

/** The rows matching a picker's search, and how many there are in all. */
export interface RelationSearch {
  rows: ContentRow[];
  filtered: number;
  loading: boolean;
  error: unknown;
}

/** The list query of a picker search: over the type's search columns, in title order. */
export function pickerQuery(target: ContentTypeSummary, search: string): ListQuery {
  const text = search.trim();
  const order = titleColumnOf(target);
  return {
    filter: text !== '' && isSearchable(target) ? [`search=${text}`] : [],
    limit: PICKER_LIMIT,
    ...(order?.orderable ? { order: order.name, desc: false } : { order: 'created_at', desc: true }),
  };
}

/**
 * Searches the target type's rows while the picker is open (`search` null = closed). Each search
 * waits a moment first; a newer keystroke cancels it, waiting or sent.
 */
export function useRelationSearch(target: ContentTypeSummary | undefined, search: string | null): RelationSearch {
  const api = useApi();
  const query = target && search !== null ? pickerQuery(target, search) : null;
  const { data, isFetching, error } = useQuery({
    queryKey: queryKeys.pickerSearch(target?.table ?? '', query),
    queryFn:
      target && query
        ? async ({ signal }) => {
            await pause(SEARCH_DELAY_MS, signal);
            return api.listRows(target.table, query, signal);
          }
        : skipToken,
  });
  return {
    rows: error || !data ? [] : data.rows,
    filtered: error || !data ? 0 : data.filtered,
    loading: isFetching,
    error,
  };
}

/** Resolves after `ms`, or rejects as soon as the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        window.clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
