import type { ContentTypeSummary, PublishedColumn } from '../../../common/api-contract.js';
import { widgetFor } from '../fields/field-registry.js';

/** Most content columns the list shows; the row editor shows them all. */
const MAX_LIST_COLUMNS = 6;

/** The system column every list ends with (its header is the catalog's `table.updated`). */
export const UPDATED_COLUMN = { name: 'updated_at' } as const;

/**
 * The content columns worth a list column: the title column, then the listable columns of the best
 * rank (status, relations and images before dates, tags and slugs) while there is room. Images lead
 * the row as a thumbnail; the others keep the descriptor order.
 */
export function listColumns(type: Pick<ContentTypeSummary, 'columns' | 'title_column'>): PublishedColumn[] {
  const rank = (column: PublishedColumn) =>
    column.name === type.title_column ? -1 : (widgetFor(column).listRank ?? 2);
  const chosen = new Set(
    type.columns
      .filter((column) => widgetFor(column).listable)
      .map((column, index) => ({ column, index }))
      .sort((a, b) => rank(a.column) - rank(b.column) || a.index - b.index)
      .slice(0, MAX_LIST_COLUMNS)
      .map(({ column }) => column),
  );
  const shown = type.columns.filter((column) => chosen.has(column));
  return [...shown.filter((column) => column.type === 'image'), ...shown.filter((column) => column.type !== 'image')];
}

/** Whether the list offers sorting by a column: the server must order by it, and the widget must want it. */
export function isSortable(column: PublishedColumn): boolean {
  return column.orderable && (widgetFor(column).sortable ?? true);
}
