import { useEffect, useState } from 'react';
import type { ContentRow, ContentTypeSummary, ListQuery } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
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
 * Searches the target type's rows while the picker is open (`search` null = closed); answers to
 * older searches are dropped.
 */
export function useRelationSearch(target: ContentTypeSummary | undefined, search: string | null): RelationSearch {
  const api = useApi();
  const [result, setResult] = useState<RelationSearch>({ rows: [], filtered: 0, loading: false, error: null });
  const table = target?.table;
  const query = target && search !== null ? JSON.stringify(pickerQuery(target, search)) : null;

  useEffect(() => {
    if (!table || query === null) return;
    const controller = new AbortController();
    setResult((current) => ({ ...current, loading: true, error: null }));
    const timer = window.setTimeout(() => {
      api.listRows(table, JSON.parse(query) as ListQuery, controller.signal).then(
        (list) => setResult({ rows: list.rows, filtered: list.filtered, loading: false, error: null }),
        (error: unknown) => {
          if (!controller.signal.aborted) setResult({ rows: [], filtered: 0, loading: false, error });
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [api, table, query]);

  return result;
}
