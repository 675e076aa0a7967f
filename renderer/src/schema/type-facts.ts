import type { ContentTypeSummary, PublishedColumn } from '../../../common/api-contract.js';
import { SEARCHED_BODY_TYPES } from '../../../common/title-rules.js';

/**
 * What the editor needs to know about a content type beyond its columns, read from what the server
 * publishes (`title_column`, `search_columns`, each column's `filterable` and `orderable`) rather
 * than worked out again here.
 */

/** The parts of a type these helpers read. */
export type TypeFacts = Pick<ContentTypeSummary, 'columns' | 'title_column' | 'search_columns'>;

/** The column whose value names a row, if the type has one. */
export function titleColumnOf(type: Pick<ContentTypeSummary, 'columns' | 'title_column'>): PublishedColumn | undefined {
  return type.columns.find((column) => column.name === type.title_column);
}

/** The words a row is called by (the value of its type's title column), for headings, pickers and toasts. */
export function rowLabel(titleColumn: string | null, values: Record<string, unknown>, fallback: string): string {
  const value = titleColumn === null ? undefined : values[titleColumn];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/** The select columns the server filters on, each of which gets a filter dropdown above the list. */
export function filterColumns(type: Pick<ContentTypeSummary, 'columns'>): PublishedColumn[] {
  return type.columns.filter(
    (column) => column.type === 'select' && column.filterable && (column.options?.length ?? 0) > 0,
  );
}

/** Whether the server can search the type (`filter=search=` looks in its `search_columns`). */
export function isSearchable(type: Pick<ContentTypeSummary, 'search_columns'>): boolean {
  return type.search_columns.length > 0;
}

/** Whether the type's search also reads text beyond titles and slugs (its rich text and blocks columns). */
export function searchCoversText(type: Pick<ContentTypeSummary, 'search_columns' | 'columns'>): boolean {
  const searched = new Set(type.search_columns);
  return type.columns.some((column) => searched.has(column.name) && SEARCHED_BODY_TYPES.has(column.type));
}

/** Whether the type has a translatable field (one value per locale), so it is read and written in a locale. */
export function isTranslatable(type: Pick<ContentTypeSummary, 'columns'>): boolean {
  return type.columns.some((column) => column.localized === true);
}
