import { createHash } from 'node:crypto';

/**
 * Names of the schema objects Quire keeps for a content table (its search index, the index's
 * pending table and triggers, its SQL indexes). Tables, indexes and triggers share the database's
 * namespaces with content tables, so these names must be ones no content table can take, and
 * distinct for different tables:
 *
 * - Every name starts with `quire_`, which content tables never do (`isReservedTable`).
 * - The table and column names inside a name are separated by `:`, which they cannot contain
 *   (`[a-z][a-z0-9_]*`): `quire_idx:news:status` can only be the `status` index of `news`, where the
 *   old `news_status_idx` was also the name a type called `news_status_idx` would take.
 * - The FTS5 search index that databases had before migration 018 was named with a final `:`,
 *   because FTS5 names its shadow tables by appending `_data`, `_idx`, `_content`, `_docsize` and
 *   `_config` to it: `quire_fts:news:_data` could not be the index of another table. (The pending
 *   table and triggers keep their `fts` names: renaming them would gain nothing.)
 * - A name longer than PostgreSQL's 63-byte identifiers is cut, and a hash of the whole name is
 *   appended after a `~` (which the uncut names never contain), so it stays deterministic and
 *   distinct.
 *
 * Quoted identifiers (Kysely's `sql.id`, the schema builder) accept `:` and `~` in both SQLite and
 * PostgreSQL.
 */

/** What an internal object is; the first part of its name. */
export type InternalKind =
  | 'fts'
  | 'fts_pending'
  | 'fts_trigger'
  | 'idx'
  | 'unique'
  | 'count'
  | 'search'
  | 'search_trgm'
  | 'search_changed'
  | 'search_number'
  | 'search_removed';

/** Prefix of every internal name (content tables can never start with it). */
export const INTERNAL_PREFIX = 'quire_';

/** Longest name, in bytes: PostgreSQL cuts identifiers at 63. */
export const MAX_INTERNAL_NAME_BYTES = 63;

/** Hex digits of the hash that ends a shortened name (64 bits: collisions are not a concern). */
const HASH_LENGTH = 16;

/** The name of an internal object of `table`: `quire_<kind>:<table>[:<part>...]`, at most 63 bytes. */
export function internalName(kind: InternalKind, table: string, ...parts: readonly string[]): string {
  return fitted(`${INTERNAL_PREFIX}${kind}:${[table, ...parts].join(':')}`);
}

/** The FTS5 search index a content table had before migration 018, which drops it. */
export function searchIndexName(table: string): string {
  return internalName('fts', table, '');
}

/** The table of rows written since the search index of `table` was last flushed. */
export function searchPendingName(table: string): string {
  return internalName('fts_pending', table);
}

/** The triggers that keep the search index of `table` in step with its rows. */
export function searchTriggerName(table: string, event: 'insert' | 'update' | 'delete'): string {
  return internalName('fts_trigger', table, event);
}

/** PostgreSQL's search table of `table`: each row's id and the folded text of its search columns. */
export function searchTextName(table: string): string {
  return internalName('search', table);
}

/** The trigram index of one column of PostgreSQL's search table of `table`. */
export function searchTextIndexName(table: string, column: string): string {
  return internalName('search_trgm', table, column);
}

/** The index of PostgreSQL's search table of `table` by writing transaction (postgres-memory-search.ts). */
export function searchChangedIndexName(table: string): string {
  return internalName('search_changed', table);
}

/** The unique index of PostgreSQL's search table of `table` by row number (a page's rows are read by it). */
export function searchNumberIndexName(table: string): string {
  return internalName('search_number', table);
}

/** The trigger that notes rows deleted from PostgreSQL's search table of `table`. */
export function searchRemovedTriggerName(table: string): string {
  return internalName('search_removed', table);
}

/** A SQL index of a content table over `columns` (the `id` tie-breaker it may end with is not named). */
export function contentIndexName(table: string, columns: readonly string[], unique: boolean): string {
  return internalName(unique ? 'unique' : 'idx', table, ...columns);
}

/** The narrow index of a content table over `column` alone, which exact counts of its values read. */
export function contentCountIndexName(table: string, column: string): string {
  return internalName('count', table, column);
}

/**
 * The stored column of a content table holding the first characters of text column `column`, which
 * its list indexes hold on PostgreSQL (see order-key-columns.ts). Columns live in their table's
 * own namespace, so the table is not named; `:` keeps it apart from every content column.
 */
export function orderKeyColumnName(column: string): string {
  return fitted(`${ORDER_KEY_PREFIX}${column}`);
}

/** Whether a column of a content table is an order key column (`orderKeyColumnName`). */
export function isOrderKeyColumn(name: string): boolean {
  return name.startsWith(ORDER_KEY_PREFIX);
}

/** What every order key column's name starts with (checked on every row PostgreSQL returns). */
const ORDER_KEY_PREFIX = `${INTERNAL_PREFIX}key:`;

/**
 * The stored column of a content table holding the text a search finds in body column `column`
 * (rich text without its tags, the text inside blocks; see search-text-columns.ts). Named as
 * order key columns are, in the table's own namespace.
 */
export function searchTextColumnName(column: string): string {
  return fitted(`${SEARCH_TEXT_PREFIX}${column}`);
}

/** Whether a column of a content table is a search text column (`searchTextColumnName`). */
export function isSearchTextColumn(name: string): boolean {
  return name.startsWith(SEARCH_TEXT_PREFIX);
}

/** What every search text column's name starts with. */
const SEARCH_TEXT_PREFIX = `${INTERNAL_PREFIX}text:`;

/**
 * The stored column of a content table holding localized column `column`'s value in `locale` (not
 * the default locale, whose value stays in `column` itself), resolved along the locale's fallback
 * chain (see server/locales/localized-values.ts). Locale codes hold letters, digits and `-`.
 */
export function localeColumnName(column: string, locale: string): string {
  return fitted(`${LOCALE_VALUE_PREFIX}${locale}:${column}`);
}

/**
 * The stored column of a content table naming, for one locale, the localized columns that locale
 * holds no value of its own for, and where each read comes from instead (JSON; null when none).
 */
export function missingColumnName(locale: string): string {
  return fitted(`${LOCALE_MISSING_PREFIX}${locale}`);
}

/** Whether a column of a content table holds a locale's values or gaps (`localeColumnName`, `missingColumnName`). */
export function isLocaleColumn(name: string): boolean {
  return name.startsWith(LOCALE_VALUE_PREFIX) || name.startsWith(LOCALE_MISSING_PREFIX);
}

const LOCALE_VALUE_PREFIX = `${INTERNAL_PREFIX}loc:`;
const LOCALE_MISSING_PREFIX = `${INTERNAL_PREFIX}missing:`;

/** The name itself when it fits in 63 bytes, else its start, `~` and a hash of all of it. */
function fitted(name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length <= MAX_INTERNAL_NAME_BYTES) return name;
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, HASH_LENGTH);
  // Names are ASCII (identifiers and `:`), so cutting bytes cuts no character in two.
  const kept = bytes.subarray(0, MAX_INTERNAL_NAME_BYTES - HASH_LENGTH - 1).toString('utf8');
  return `${kept}~${hash}`;
}
