import { CompiledQuery, type Kysely } from 'kysely';
import { searchPendingName, searchTriggerName } from '../queries/internal-names.js';

/**
 * The triggers that note a SQLite content table's search changes in its pending table: every
 * inserted row, every row whose search columns change, every deleted row. The in-memory search
 * index (sqlite-memory-search.ts) reads the rows noted there again before it answers.
 *
 * Which columns the triggers watch is read back from their own SQL (the update trigger names
 * them), and accepted only when all three are exactly what `searchTriggerSql` makes for those
 * columns: anything older or edited by hand is not trusted to note every change.
 */

/** The writes that each have a trigger. */
export const SEARCH_TRIGGER_EVENTS = ['insert', 'update', 'delete'] as const;

/** One of the writes that have a trigger. */
export type SearchTriggerEvent = (typeof SEARCH_TRIGGER_EVENTS)[number];

/** Runs a read (on whichever connection the caller chose) and returns its rows. */
export type SchemaRead = (text: string, parameters: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Reads through Kysely: inside the caller's transaction when `db` is one, else queued behind any
 * transaction on the connection, which Kysely waits for.
 */
export const readViaKysely =
  (db: Kysely<unknown>): SchemaRead =>
  async (text, parameters) =>
    (await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [...parameters]))).rows;

/** A quoted SQL identifier. */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The statements creating the three triggers of `table` for `columns`. They start with
 * `CREATE TRIGGER`, as SQLite stores them in `sqlite_master` (it upper-cases those two words), so
 * the stored text equals the made one.
 */
export function searchTriggerSql(table: string, columns: readonly string[]): Record<SearchTriggerEvent, string> {
  const pending = quoted(searchPendingName(table));
  const note = (row: 'new' | 'old') => `begin insert or replace into ${pending}(rowid) values (${row}.rowid); end`;
  const create = (event: SearchTriggerEvent, when: string, row: 'new' | 'old') =>
    `CREATE TRIGGER ${quoted(searchTriggerName(table, event))} after ${when} on ${quoted(table)} ${note(row)}`;
  return {
    insert: create('insert', 'insert', 'new'),
    update: create('update', `update of ${columns.map(quoted).join(', ')}`, 'new'),
    delete: create('delete', 'delete', 'old'),
  };
}

/**
 * The columns whose changes the triggers of `table` note, when its three triggers are exactly those
 * `searchTriggerSql` makes (and its pending table exists); otherwise null.
 */
export async function notedSearchColumns(read: SchemaRead, table: string): Promise<string[] | null> {
  const names = SEARCH_TRIGGER_EVENTS.map((event) => searchTriggerName(table, event));
  const rows = await read(
    `select name, sql from sqlite_master where type = 'trigger' and tbl_name = ? and name in (?, ?, ?)
      union all select name, null from sqlite_master where type = 'table' and name = ?`,
    [table, ...names, searchPendingName(table)],
  );
  const sqlOf = new Map(rows.map((row) => [String(row.name), row.sql === null ? null : String(row.sql)]));
  if (!sqlOf.has(searchPendingName(table))) return null;
  const update = sqlOf.get(searchTriggerName(table, 'update'));
  const columns = update ? columnsOfUpdateTrigger(update) : null;
  if (!columns || columns.length === 0) return null;
  const expected = searchTriggerSql(table, columns);
  const exact = SEARCH_TRIGGER_EVENTS.every((event) => sqlOf.get(searchTriggerName(table, event)) === expected[event]);
  return exact ? columns : null;
}

/** The quoted column list between `after update of` and ` on `, or null when there is none. */
function columnsOfUpdateTrigger(statement: string): string[] | null {
  const list = /^CREATE TRIGGER "(?:[^"]|"")*" after update of ((?:"(?:[^"]|"")*"(?:, )?)+) on /.exec(statement)?.[1];
  if (!list) return null;
  return [...list.matchAll(/"((?:[^"]|"")*)"/g)].map((match) => match[1].replaceAll('""', '"'));
}
