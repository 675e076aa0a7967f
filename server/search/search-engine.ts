import type { Expression, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import type { StatementRunner } from '../db/statement-runner.js';
import type { SnapshotUnused } from './search-snapshot-files.js';

/**
 * Quire's search engine: "the search columns of a content table contain every keyword", folded as
 * search-folding.ts folds, with exactly the rows `containsIgnoringCase` would find row by row.
 *
 * - Each content table has an index in the server's memory (search-memory-index.ts): folded text,
 *   word and trigram postings as compressed bitmaps of row numbers. A keyword is answered from the
 *   postings; rows the postings cannot settle are "unsure" and checked by SQL.
 * - One orchestration answers every search (search-answers.ts): it asks the engine's store for the
 *   table's index brought in step with the database, finds the matches, and has the store's SQL
 *   put the count or the page together from them; when a write commits meanwhile it does so again,
 *   and when the index cannot answer it returns null and the repository plans SQL instead.
 * - An engine provides only persistence (`MemoryIndexStore`, kept in `IndexTables`): how an index
 *   is built from the rows, how it learns of the rows changed since a point (SQLite: a pending
 *   table its triggers fill; PostgreSQL: change numbers and snapshots), and its SQL.
 * - Saved indexes (`SavedSearchIndexes`; search-snapshot-codec.ts, search-snapshot-files.ts): a
 *   server saves its indexes at a clean stop, and `quire import` or `quire copy` after writing
 *   (search-index-saving.ts); the next start reads them back instead of building them, trusting a
 *   saved file only while the engine says it still describes its table.
 */

/**
 * A content table's search index: answers "the search columns contain this keyword" without a scan,
 * with exactly the results of `containsIgnoringCase` over the same columns.
 */
export interface SearchIndexEngine {
  /** Creates (or re-creates, when its columns differ) the search index of a table and fills it. */
  ensure(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void>;
  /** Drops the search index of a table with everything that keeps it in step. */
  drop(db: Kysely<unknown>, table: string): Promise<void>;
  /**
   * Takes a row just inserted or updated (all its stored columns) into the index, in the write's
   * transaction. SQLite's triggers do this themselves; PostgreSQL folds the text here, in JavaScript.
   */
  rowWritten(
    db: Kysely<unknown>,
    table: string,
    columns: readonly string[],
    row: Record<string, unknown>,
  ): Promise<void>;
  /** Moves rows written since the last flush into the index (run it inside a transaction). */
  flush(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void>;
  /**
   * Whether written rows wait for `flush` (SQLite's pending table). Where they do not, nothing
   * schedules a flush after a write, so no transaction is opened to do nothing.
   */
  readonly flushes: boolean;
  /**
   * The default locale's columns the search index of `table` covers (those its SQL, flushes and
   * rows written are keyed by; it follows every locale's), or null when it has none (or a broken one).
   */
  indexedColumns(db: Kysely<unknown>, table: string): Promise<string[] | null>;
  /**
   * The index in the database that SQL searches use, or null where there is none (SQLite: its
   * searches are answered in memory, or by the plain scan).
   */
  readonly sql: SqlSearchIndex | null;
  /** Searches answered from an in-process index, where the engine keeps one. */
  readonly memory?: MemorySearch;
}

/** A search index in the database, which SQL queries use. */
export interface SqlSearchIndex {
  /** Whether the index can answer this keyword exactly (others are checked row by row). */
  canAnswer(keyword: string): boolean;
  /** Rows of `table` whose search columns contain every keyword (each one `canAnswer` accepts). */
  matches(table: string, columns: readonly string[], keywords: readonly string[]): Expression<SqlBool>;
}

/**
 * Searches answered from an index in the server's memory: exact counts and pages, or null when it
 * cannot answer this one now (still building, a write under way): the caller then plans SQL.
 */
export interface MemorySearch {
  /**
   * `seen`: the table's change number read since the request began (a list's page read it), which
   * an engine whose index follows other servers' writes (PostgreSQL) then need not read again.
   */
  count(query: MemorySearchRequest, seen?: string): Promise<number | null>;
  list(query: MemorySearchRequest, page: MemorySearchPage): Promise<Record<string, unknown>[] | null>;
  /** Whether `list` reads the page's rows with `page.marked` (its rows then carry the marks). */
  readonly readsMarks: boolean;
  /** Starts building the index of `table` if it has none yet (a table is being read). */
  warm(db: Kysely<unknown>, runner: StatementRunner | undefined, table: string): void;
  /**
   * `total` and `filtered` of a selection without keywords, when the values kept beside the
   * table's index decide its conditions, as of change number `seen` or later (with the number
   * they are exact at); null when there is no index to ask yet, or SQL must count. Where an engine
   * follows its writes in memory otherwise (SQLite's read cache), it has none.
   */
  tally?(
    db: Kysely<unknown>,
    table: string,
    conditions: readonly MemoryCondition[],
    seen: string,
  ): Promise<{ total: number; filtered: number; number: string } | null>;
  /** The indexes saved for the next start and read back at it. */
  readonly saved: SavedSearchIndexes;
}

/** Where an engine saves a database's search indexes, and from what size. */
export interface SavedIndexPlace {
  /** The database's file, beside which an engine may save them (SQLite); null where there is none. */
  file: string | null;
  /** The folder of saved indexes where an engine keeps them apart from the database (PostgreSQL). */
  folder?: string | undefined;
  /** Rows from which a table's index is saved. */
  minRows: number;
  /** Hears why a saved index was not read back (its first search then waits for a build). */
  onUnused?: SnapshotUnused | undefined;
}

/**
 * A server saves its in-memory indexes at a clean stop and reads them back at its next start
 * instead of building them; each engine stores them and says when a saved one still describes
 * its table.
 */
export interface SavedSearchIndexes {
  /**
   * Saves `db`'s indexes at `place` from now on, and reads saved ones back instead of building
   * them. Returns the tables with a saved index, whose files are read from now on: warm them once
   * the database is ready, and the first search finds them loaded.
   */
  keepSavedIndexes(db: Kysely<unknown>, runner: StatementRunner | undefined, place: SavedIndexPlace): Promise<string[]>;
  /** Saves the indexes held, each brought in step first (at a clean stop). Returns the tables saved. */
  saveIndexes(db: Kysely<unknown>, runner: StatementRunner | undefined): Promise<string[]>;
  /**
   * Builds `table`'s index now and saves it at `place`, when the table has `place.minRows` rows or
   * more (after an import, so that a server started on the database answers its first search
   * without a build). Returns whether it was saved.
   */
  saveIndexNow(
    db: Kysely<unknown>,
    runner: StatementRunner | undefined,
    table: string,
    place: SavedIndexPlace,
  ): Promise<boolean>;
}

/**
 * A search as the repository plans it: keywords over columns, and the selection's other conditions;
 * `runner` is the reading connection's, where the repository has one (SQLite's index answers only
 * through it).
 */
export interface MemorySearchRequest {
  db: Kysely<unknown>;
  runner?: StatementRunner;
  table: string;
  columns: readonly string[];
  keywords: readonly string[];
  equals: readonly Expression<SqlBool>[];
  /** The filters `equals` is the SQL of, in its order, for an index that can decide some itself. */
  conditions?: readonly MemoryCondition[];
}

/** A list filter as an in-memory index may decide it (filter-conditions.ts `FilterCondition`). */
export interface MemoryCondition {
  column: string;
  op?: string;
  value: unknown;
  match?: string;
  through?: unknown;
}

/** A search on a reading connection (SQLite's in-memory index answers these). */
export type MemorySearchQuery = MemorySearchRequest & { runner: StatementRunner };

/** Order and window of a page (as the repository's `RowPage`). */
export interface MemorySearchPage {
  order: string;
  desc: boolean;
  limit: number;
  offset: number;
  /**
   * Puts a query of the table in the page's order exactly as the repository's lists do (nulls, the
   * text prefix the list indexes hold, ties by id), so that those indexes serve it.
   */
  ordered?: RowQueryStep;
  /** Adds the list's read marks (read-marks.ts) to the query reading the page's rows. */
  marked?: RowQueryStep;
}

/** A step applied to a query of a content table's rows (its order, its added columns). */
export type RowQueryStep = <Q extends SelectQueryBuilder<Record<string, Record<string, unknown>>, string, object>>(
  query: Q,
) => Q;

/**
 * Whether a table's indexed columns include every one of `columns`: a table's search index follows
 * every locale's search columns, and a search covers one locale's.
 */
export function coversColumns(indexed: readonly string[], columns: readonly string[]): boolean {
  return columns.every((column) => indexed.includes(column));
}

/** Whether an index's columns are exactly the search columns, in any order (else it is rebuilt). */
export function sameColumns(indexed: readonly string[], columns: readonly string[]): boolean {
  return indexed.length === columns.length && columns.every((column) => indexed.includes(column));
}
