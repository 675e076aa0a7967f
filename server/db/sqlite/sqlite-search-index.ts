import { type Kysely, sql } from 'kysely';
import { sameColumns } from '../../search/search-engine.js';
import { defaultColumnsAmong } from '../../search/search-index-tables.js';
import { searchIndexName, searchPendingName, searchTriggerName } from '../queries/internal-names.js';
import { noteFlushed } from './sqlite-memory-search-state.js';
import {
  notedSearchColumns,
  readViaKysely,
  SEARCH_TRIGGER_EVENTS,
  searchTriggerSql,
} from './sqlite-search-triggers.js';

/**
 * What a SQLite content table keeps in the database for search: not an index, only a note of which
 * rows changed. Searches are answered by the in-memory index (sqlite-memory-search.ts), built from
 * the table itself, or else by the plain scan; triggers note every inserted and deleted row and
 * every row whose search columns change in a small pending table (sqlite-search-triggers.ts), and
 * the in-memory index reads those rows again before it answers.
 *
 * No index in the database answers searches: an FTS5 trigram index would answer nothing the plain
 * scan cannot once searches wait for the in-memory index, and would cost every write (FTS5 writes
 * a segment at every savepoint release, and group commit releases one per write).
 */

/** Creates (or re-creates, when its columns differ) what notes the search changes of a table. */
export async function ensureSearchIndex(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  if (columns.length === 0) {
    await dropSearchIndex(db, table);
    return;
  }
  await dropLegacyIndex(db, table);
  await sql`create table if not exists ${sql.id(searchPendingName(table))} (rowid integer primary key)`.execute(db);
  const noted = await notedSearchColumns(readViaKysely(db), table);
  if (noted !== null && sameColumns(noted, columns)) return;
  const statements = searchTriggerSql(table, columns);
  for (const event of SEARCH_TRIGGER_EVENTS) {
    await sql`drop trigger if exists ${sql.id(searchTriggerName(table, event))}`.execute(db);
    await sql.raw(statements[event]).execute(db);
  }
}

/** Drops a table's search triggers and pending table (dropping the table drops the triggers too). */
export async function dropSearchIndex(db: Kysely<unknown>, table: string): Promise<void> {
  for (const event of SEARCH_TRIGGER_EVENTS) {
    await sql`drop trigger if exists ${sql.id(searchTriggerName(table, event))}`.execute(db);
  }
  await dropLegacyIndex(db, table);
  await sql`drop table if exists ${sql.id(searchPendingName(table))}`.execute(db);
}

/** Drops the FTS5 index databases made before migration 018 have (with its shadow tables). */
async function dropLegacyIndex(db: Kysely<unknown>, table: string): Promise<void> {
  await sql`drop table if exists ${sql.id(searchIndexName(table))}`.execute(db);
}

/**
 * Tells the in-memory indexes which rows were noted since the last flush, and empties the pending
 * table (run it inside a transaction). Searches give the same rows before and after.
 */
export async function flushSearchIndex(db: Kysely<unknown>, table: string): Promise<void> {
  await noteFlushed(db, table);
  await sql`delete from ${sql.id(searchPendingName(table))}`.execute(db);
}

/**
 * The default locale's columns among those whose changes the triggers of `table` note (every
 * locale's search columns), or null when it has none (or others).
 */
export async function indexedColumns(db: Kysely<unknown>, table: string): Promise<string[] | null> {
  const noted = await notedSearchColumns(readViaKysely(db), table);
  return noted === null ? null : defaultColumnsAmong(noted);
}
