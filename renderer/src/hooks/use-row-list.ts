import { useEffect, useState } from 'react';
import type { ContentTypeSummary, ListQuery, ListResponse } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import type { ListState } from '../routing/routes.js';
import { filterColumns, isSearchable } from '../schema/type-facts.js';

/** The list request of a list state: paging, sort (newest first by default), search and filters. */
export function listRequest(type: ContentTypeSummary, list: ListState): ListQuery {
  const filter: string[] = [];
  if (list.search.trim() !== '' && isSearchable(type)) filter.push(`search=${list.search.trim()}`);
  for (const column of filterColumns(type)) {
    const value = list.filters[column.name];
    if (value && column.options?.some((option) => option.id === value)) filter.push(`${column.name}=${value}`);
  }
  return {
    filter,
    limit: list.pageSize,
    offset: (list.page - 1) * list.pageSize,
    order: list.sort?.order ?? 'created_at',
    desc: list.sort ? list.sort.desc : true,
  };
}

/** A list load: the last answer stays on screen while the next one loads, so paging never flashes. */
export interface RowListState {
  data: ListResponse | null;
  /** The offset `data` was asked for: while the next page loads, the rows on screen are still this page's. */
  offset: number;
  loading: boolean;
  error: unknown;
  /** Loads again (after "Try again"). */
  retry(): void;
}

/**
 * Loads one page of rows for the list state; stale answers are dropped when the state moves on.
 * (The list page is keyed by type, so another type starts from a blank table.)
 */
export function useRowList(type: ContentTypeSummary, list: ListState, dataVersion: number): RowListState {
  const api = useApi();
  const [data, setData] = useState<ListResponse | null>(null);
  const [offset, setOffset] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const request = JSON.stringify(listRequest(type, list));

  useEffect(() => {
    void dataVersion;
    void attempt;
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    const query = JSON.parse(request) as ListQuery;
    api.listRows(type.table, query, controller.signal).then(
      (answer) => {
        setData(answer);
        setOffset(query.offset ?? 0);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [api, type.table, request, dataVersion, attempt]);

  return { data, offset, loading, error, retry: () => setAttempt((n) => n + 1) };
}
