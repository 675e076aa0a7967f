/**
 * Names of content tables and columns: which are well formed, which are reserved, and the names the
 * server derives (a type's table from its slug). The content-type editor suggests names by the
 * same rules the server checks.
 */

/** A table or column name: lower-case letters, digits and `_`, starting with a letter. */
const IDENTIFIER = /^[a-z][a-z0-9_]{0,62}$/;

/** Longest table or column name. */
export const MAX_IDENTIFIER_LENGTH = 63;

/**
 * Column names the server uses itself, that would be confusing in a query string, or that are
 * names of every JavaScript object (a column called `constructor` would be looked up on the
 * prototype of any plain object of fields).
 */
export const RESERVED_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'meta',
  'meta_title',
  'meta_description',
  'meta_keywords',
  'created_at',
  'updated_at',
  'created_by',
  'updated_by',
  'publish_at',
  // A row's pending scheduled change, on every row read.
  'schedule',
  'search',
  'rowid',
  'oid',
  '_rowid_',
  'rowcount',
  'constructor',
  'prototype',
  '__proto__',
]);

/**
 * Table-name prefixes and names that belong to Quire (`quire_` holds every internal table, index and
 * trigger), SQLite, PostgreSQL or Kysely, or that the editor's own paths use (`/api`, `/media`,
 * `/assets` are served at the top level beside `/<table>`).
 */
const RESERVED_TABLE = /^(?:sqlite_|quire_|kysely_|pg_)|^(?:api|assets|media|uploads|backups|constructor|prototype)$/;

/** Whether a string can name a content table or column. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** Whether a table name is Quire's, the engine's or a path of the editor. */
export function isReservedTable(table: string): boolean {
  return RESERVED_TABLE.test(table);
}

/** The table a content type gets when none is given: its slug with `_` for `-`. */
export function tableFromSlug(slug: string): string {
  return slug.replace(/-/g, '_');
}

/**
 * A name the server would accept, made from a slug (`published-at` -> `published_at`): digits first
 * get an `n_` in front, and the name is cut to fit.
 */
export function identifierFromSlug(slug: string): string {
  let name = tableFromSlug(slug);
  if (/^[0-9]/.test(name)) name = `n_${name}`;
  return name.slice(0, MAX_IDENTIFIER_LENGTH).replace(/_+$/, '');
}
