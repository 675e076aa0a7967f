import type { ContentTypeSummary, PublishedColumn } from '../../../common/api-contract.js';
import { widgetFor } from '../fields/field-registry.js';

/** Most content columns the list shows; the row editor shows them all. */
const MAX_LIST_COLUMNS = 6;

/** The system column every list ends with (its header is the catalog's `table.updated`). */
export const UPDATED_COLUMN = { name: 'updated_at' } as const;

/** The rank a column gets when its widget gives none, and the rank of "Updated" (a date like the others). */
const DEFAULT_RANK = 2;

/** How early a column makes way: 0 for the title column (never), else its widget's `listRank`. */
function listRank(column: PublishedColumn, titleColumn: string | null): number {
  if (column.name === titleColumn) return 0;
  return widgetFor(column).listRank ?? DEFAULT_RANK;
}

/**
 * Each list column's place when the list narrows: 0 for the column that names the row, then by rank
 * (ties in the list's order, images after words, "Updated" last among the dates). A narrow list keeps the first places
 * (list.css hides `col-place-<n>` by the width of the list's card), so it keeps what a wide one ranks
 * first: title and status stay, slugs, tags and dates go.
 */
export function listPlaces(columns: PublishedColumn[], linkColumn: string | null | undefined): Map<string, number> {
  // Within a rank a thumbnail goes after words: it says the least in a narrow row.
  const ranked = [
    ...columns.map((column, index) => ({
      name: column.name,
      rank: listRank(column, linkColumn ?? null),
      image: column.type === 'image',
      index,
    })),
    { name: UPDATED_COLUMN.name, rank: DEFAULT_RANK, image: false, index: columns.length },
  ].sort((a, b) => a.rank - b.rank || Number(a.image) - Number(b.image) || a.index - b.index);
  return new Map(ranked.map(({ name }, place) => [name, place]));
}

/**
 * The content columns worth a list column: the title column, then the listable columns of the best
 * rank (status, relations and images before dates, tags and slugs) while there is room. Images lead
 * the row as a thumbnail; the others keep the descriptor order.
 */
export function listColumns(type: Pick<ContentTypeSummary, 'columns' | 'title_column'>): PublishedColumn[] {
  const rank = (column: PublishedColumn) => listRank(column, type.title_column);
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
