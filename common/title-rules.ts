import type { ColumnDescriptor, ColumnType } from './api-contract.js';

/**
 * Which column names a row, and which columns a search looks in. The server derives both once per
 * content type and publishes them (`title_column`, `search_columns`); relation values, references,
 * list cells, pickers and search all use what it publishes.
 */

/** The column a row's title is: its slug's source column, else its first text column, else none. */
export function titleColumnOf(columns: readonly ColumnDescriptor[]): string | null {
  const slugSource = columns.find((column) => column.type === 'slug' && column.parent)?.parent;
  if (slugSource && columns.some((column) => column.name === slugSource)) return slugSource;
  return columns.find((column) => column.type === 'text')?.name ?? null;
}

/** The first slug column, whose value is a row's address on a site. */
export function slugColumnOf(columns: readonly ColumnDescriptor[]): string | null {
  return columns.find((column) => column.type === 'slug')?.name ?? null;
}

/**
 * Column types whose text `filter=search=` covers beside the title and slugs: a body a reader
 * reads as text once its markup is gone (rich text's tags, the structure of blocks). Markdown
 * columns are not searched.
 */
export const SEARCHED_BODY_TYPES: ReadonlySet<ColumnType> = new Set(['richtext', 'blocks']);

/** The columns `filter=search=` looks in: the title column, then the slug columns, then the rich text and blocks columns. */
export function searchColumnsOf(columns: readonly ColumnDescriptor[]): string[] {
  const title = titleColumnOf(columns);
  const slugs = columns.filter((column) => column.type === 'slug').map((column) => column.name);
  const bodies = columns.filter((column) => SEARCHED_BODY_TYPES.has(column.type)).map((column) => column.name);
  return [...(title ? [title] : []), ...slugs.filter((name) => name !== title), ...bodies];
}
