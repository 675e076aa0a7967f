import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContentTypeSummary, ListResponse } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { useChanges } from '../api/change-events.js';
import type { RowQuery } from '../api/client.js';
import type { ListState } from '../routing/routes.js';
import { filterParams } from '../schema/list-filters.js';
import { isSearchable } from '../schema/type-facts.js';
import type { LocaleView } from '../translation/locale-view.js';
import { forgetRows, queryKeys } from './row-queries.js';

/**
 * The list request of a list state: paging, sort (newest first by default), search and filters;
 * with `locale`, read in its locale, only the rows missing a value in its `missing` locale.
 */
export function listRequest(
  type: ContentTypeSummary,
  list: ListState,
  locale?: Pick<LocaleView, 'code' | 'missing'>,
): RowQuery {
  const filter: string[] = [];
  if (list.search.trim() !== '' && isSearchable(type)) filter.push(`search=${list.search.trim()}`);
  filter.push(...filterParams(type, list.filters));
  if (locale?.missing) filter.push(`missing:${locale.missing}`);
  return {
    filter,
    limit: list.pageSize,
    offset: (list.page - 1) * list.pageSize,
    order: list.sort?.order ?? 'created_at',
    desc: list.sort ? list.sort.desc : true,
    ...(locale ? { locale: locale.code } : {}),
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
 * Loads one page of rows for the list state (in `locale`, when given); a request the state has
 * moved on from is cancelled. (The list page is keyed by type, so another type starts from a blank
 * table.) A row of the type saved anywhere, by anyone, loads the page again.
 */
export function useRowList(
  type: ContentTypeSummary,
  list: ListState,
  locale?: Pick<LocaleView, 'code' | 'missing'>,
): RowListState {
  const api = useApi();
  const queries = useQueryClient();
  useChanges((change) => {
    if (change.type === type.table) forgetRows(queries, type.table, change.action !== 'update');
  });
  const query = listRequest(type, list, locale);
  const { data, isFetching, error, refetch } = useQuery({
    queryKey: queryKeys.listPage(type.table, query),
    queryFn: async ({ signal }) => ({
      answer: await api.listRows(type.table, query, signal),
      offset: query.offset ?? 0,
    }),
    placeholderData: keepPreviousData,
  });
  return {
    data: data?.answer ?? null,
    offset: data?.offset ?? 0,
    loading: isFetching,
    error,
    retry: () => void refetch(),
  };
}
