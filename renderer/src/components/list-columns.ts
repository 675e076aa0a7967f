import type { ColumnDescriptor } from '../../../server/contract/api-contract.js';
import { widgetFor } from '../fields/field-registry.js';

/** Most content columns the list shows; the row editor shows them all. */
const MAX_LIST_COLUMNS = 6;

/** The system column every list ends with. */
export const UPDATED_COLUMN = { name: 'updated_at', label: 'Updated' } as const;

/**
 * The content columns worth a list column: the title column, then the listable columns of the best
 * rank (status, relations and images before dates, tags and slugs) while there is room. Images lead
 * the row as a thumbnail; the others keep the descriptor order.
 */
export function listColumns(columns: readonly ColumnDescriptor[]): ColumnDescriptor[] {
  const title = titleColumn(columns);
  const rank = (column: ColumnDescriptor) => (column === title ? -1 : (widgetFor(column).listRank ?? 2));
  const chosen = new Set(
    columns
      .filter((column) => widgetFor(column).listable)
      .map((column, index) => ({ column, index }))
      .sort((a, b) => rank(a.column) - rank(b.column) || a.index - b.index)
      .slice(0, MAX_LIST_COLUMNS)
      .map(({ column }) => column),
  );
  const shown = columns.filter((column) => chosen.has(column));
  return [...shown.filter((column) => column.type === 'image'), ...shown.filter((column) => column.type !== 'image')];
}

/** The column that names a row: the parent of a slug, else the first text column, else the first. */
export function titleColumn(columns: readonly ColumnDescriptor[]): ColumnDescriptor | undefined {
  const slugParent = columns.find((column) => column.type === 'slug' && column.parent)?.parent;
  return (
    columns.find((column) => column.name === slugParent) ??
    columns.find((column) => column.type === 'text') ??
    columns[0]
  );
}

/** The words a row is called by (its title), for headings, confirmations and toasts. */
export function rowLabel(columns: readonly ColumnDescriptor[], values: Record<string, unknown>, fallback: string) {
  const column = titleColumn(columns);
  const value = column ? values[column.name] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/** The select columns, each of which gets a filter dropdown above the list. */
export function filterColumns(columns: readonly ColumnDescriptor[]): ColumnDescriptor[] {
  return columns.filter((column) => column.type === 'select' && (column.options?.length ?? 0) > 0);
}

/** Whether the server can search the type (`filter=search=` looks in its title and slug columns). */
export function isSearchable(columns: readonly ColumnDescriptor[]): boolean {
  return columns.some((column) => column.name === 'title' || column.name === 'slug');
}
