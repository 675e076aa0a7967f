import type { QueryClient } from '@tanstack/react-query';
import type { ListQuery } from '../../../common/api-contract.js';

/**
 * Cache keys of what the editor reads. Everything read from a type's rows (list pages, counts,
 * picker searches) starts with `['rows', table]`, so one prefix reaches all of it after a write.
 */
export const queryKeys = {
  contentTypes: ['content-types'],
  rows: (table?: string) => (table === undefined ? ['rows'] : ['rows', table]),
  listPage: (table: string, query: ListQuery) => ['rows', table, 'page', query],
  rowCount: (table: string) => ['rows', table, 'count'],
  pickerSearch: (table: string, query: ListQuery | null) => ['rows', table, 'search', query],
  /**
   * One row for the row editor (read in `locale`, when given); not under `rows`: an open form is
   * never reloaded under the user.
   */
  row: (table: string, id: string | null, locale?: string) => ['row', table, id, locale],
} as const;

/**
 * Rows were written (of `table`, or of any type when it is left out). Cached reads not on screen
 * are dropped, so no list shows a row as it was (a title also shows in other types' relation
 * columns, so all of them go); reads of `table` on screen load again, its row count only when a
 * row was added or removed (`countChanged`).
 */
export function forgetRows(queries: QueryClient, table?: string, countChanged = true): void {
  queries.removeQueries({ queryKey: queryKeys.rows(), type: 'inactive' });
  void queries.invalidateQueries({
    queryKey: queryKeys.rows(table),
    predicate: countChanged ? undefined : (query) => query.queryKey[2] !== 'count',
  });
}
