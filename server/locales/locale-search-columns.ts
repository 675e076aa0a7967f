import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { otherLocales, valueColumnIn } from './localized-values.js';

/**
 * Which stored columns a search covers in each locale. A table's search columns (the title, the
 * slugs, the body text columns) are the default locale's; in another locale each localized one is
 * its locale column there (`valueColumnIn`: the value after fallback), the others stay. The table's
 * search index follows every locale's columns (SQLite's triggers note their changes), so that a
 * search in any locale is answered by an in-memory index of its own columns.
 */

/** The stored columns a search in `code` covers, in the order of `searchColumns` (the default's). */
export function searchColumnsInLocale(
  document: LocalesDocument,
  columns: readonly ColumnDescriptor[],
  searchColumns: readonly string[],
  code: string,
): string[] {
  const byName = new Map(columns.map((column) => [column.name, column]));
  return searchColumnsIn(document, byName, searchColumns, code);
}

/** `searchColumnsInLocale` with the type's columns by name. */
export function searchColumnsIn(
  document: LocalesDocument,
  byName: ReadonlyMap<string, ColumnDescriptor>,
  searchColumns: readonly string[],
  code: string,
): string[] {
  return searchColumns.map((name) => {
    const column = byName.get(name);
    return column ? valueColumnIn(document, column, code) : name;
  });
}

/**
 * Every locale's search columns of a table, the default locale's first, each once: the columns
 * whose changes its search index follows.
 */
export function searchColumnsOfEveryLocale(
  document: LocalesDocument,
  columns: readonly ColumnDescriptor[],
  searchColumns: readonly string[],
): string[] {
  const all = new Set(searchColumns);
  for (const code of otherLocales(document)) {
    for (const name of searchColumnsInLocale(document, columns, searchColumns, code)) all.add(name);
  }
  return [...all];
}
