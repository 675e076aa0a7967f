import type { Kysely } from 'kysely';
import type { MemorySearchQuery } from '../../search/search-engine.js';
import { sameColumns } from '../../search/search-engine.js';
import type { IdOrder } from '../../search/search-id-order.js';
import { defaultLocaleColumns, IndexTables, indexKey } from '../../search/search-index-tables.js';
import type { MemorySearchIndex } from '../../search/search-memory-index.js';
import type { PostingBitmap } from '../../search/search-posting-bitmap.js';
import { searchPendingName } from '../queries/internal-names.js';
import { connectionRunner, type StatementRunner } from '../statement-runner.js';
import { neighbours, quote } from './sqlite-memory-pages.js';
import { readViaKysely, type SchemaRead } from './sqlite-search-triggers.js';

/**
 * The in-memory search indexes of SQLite content tables (sqlite-memory-search.ts), one state per
 * table, searched columns (a locale's) and connection, and how one is brought in step with its
 * table before it answers. The states of one table share its pending table: each reads the rows
 * noted there again, and a flush tells each which rows it moves out (`byTable`).
 */

/** One table's index on one connection, and what tells whether it is in step with the table. */
export interface TableState {
  columns: readonly string[];
  index: MemorySearchIndex;
  ready: boolean;
  /** Set when the table or database changed under a build: the state is dropped. */
  stale: boolean;
  token: number;
  schemaVersion: number;
  /** The runner's count of schema statements when `schemaVersion` was last read as it is (see `versionsSince`). */
  schemaMark?: number;
  totalChanges: number;
  /** Rows to read again before answering (moved out of the pending table by a flush). */
  dirty: Set<number>;
  /**
   * Recent answers by keywords (a list request asks for its page and its count: one search), kept
   * while the index does not change; oldest dropped first.
   */
  answers: Map<string, PostingBitmap>;
  /** Moves whenever rows are read again into the index. */
  version: number;
  /** Whether rowid order is id order (pages in id order are then slices of the matches). */
  idOrder: IdOrder;
  /** Whether the index was read back from a saved file rather than built (sqlite-search-snapshot.ts). */
  loaded: boolean;
}

/** How a build ended: its index is ready, or the table changed under it, or it failed. */
export type BuildEnd = 'ready' | 'stale' | 'failed';

/** A reading connection's indexes, and those being built again in the background (`rebuildIfWorn`), by `indexKey`. */
export class ConnectionIndexes extends IndexTables<TableState, BuildEnd> {
  readonly rebuilding = new Set<string>();
}

/** Each reading connection's indexes. */
const connections = new WeakMap<StatementRunner, ConnectionIndexes>();
/** Tables with more distinct words than an index keeps: their indexes keep word trigrams. */
export const wordy = new Set<string>();
/** Every live state by table name, so a flush can tell them (a rowid read again is never wrong). */
export const byTable = new Map<string, Set<WeakRef<TableState>>>();

/** Runs a read: straight on the connection (a runner), or queued through Kysely. */
export type Read = SchemaRead;

export const viaRunner =
  (runner: StatementRunner): Read =>
  (text, parameters) =>
    runner.all(text, parameters);

export async function versions(read: Read): Promise<{ schemaVersion: number; totalChanges: number }> {
  const [row] = await read('select (select schema_version from pragma_schema_version) as s, total_changes() as c', []);
  return { schemaVersion: Number(row.s), totalChanges: Number(row.c) };
}

/**
 * The rows this connection has changed so far: `versions` without the schema's version, whose
 * read costs the statement a read of the database.
 */
export async function totalChanges(read: Read): Promise<number> {
  const [row] = await read('select total_changes() as c', []);
  return Number(row.c);
}

/**
 * `versions`, where the schema's version is read only when it may have moved since `state` last
 * found it as built: when this connection has run a schema statement since (the runner counts
 * them), or when the runner does not count them. Another connection's change is seen before, through
 * the external change token. Searches ask at every answer, and the schema's version costs a read
 * of the database where `total_changes()` reads none.
 */
async function versionsSince(
  runner: StatementRunner,
  state: TableState,
): Promise<{ schemaVersion: number; totalChanges: number }> {
  const mark = runner.schemaChanges?.();
  if (mark !== undefined && mark === state.schemaMark) {
    return { schemaVersion: state.schemaVersion, totalChanges: await totalChanges(viaRunner(runner)) };
  }
  const seen = await versions(viaRunner(runner));
  if (seen.schemaVersion === state.schemaVersion) state.schemaMark = mark;
  return seen;
}

/** The table's index when it is built and brought in step with the database, or null. */
export async function inStep(query: MemorySearchQuery): Promise<TableState | null> {
  const { runner, table, columns } = query;
  const tables = tablesOf(runner);
  const key = indexKey(table, columns);
  const state = tables.get(key);
  if (!state) return null;
  if (state.stale || !sameColumns(state.columns, columns) || state.token !== runner.externalChangeToken()) {
    state.stale = true;
    tables.delete(key);
    return null;
  }
  if (!state.ready) return null;
  const seen = await versionsSince(runner, state);
  if (seen.schemaVersion !== state.schemaVersion) {
    state.stale = true;
    tables.delete(key);
    return null;
  }
  if (seen.totalChanges !== state.totalChanges || state.dirty.size > 0) {
    const rowids = new Set(state.dirty);
    state.dirty.clear();
    for (const rowid of await pendingRowids(viaRunner(runner), table)) rowids.add(rowid);
    try {
      await reread(runner, state, table, [...rowids]);
    } catch (error) {
      for (const rowid of rowids) state.dirty.add(rowid);
      throw error;
    }
    state.totalChanges = seen.totalChanges;
    if (incomplete(state, table, tables)) return null;
  }
  return state;
}

/**
 * Whether the state's index cannot answer (its table has more distinct words than it keeps): it is
 * dropped, and the next search starts a build that keeps word trigrams.
 */
export function incomplete(state: TableState, table: string, tables: Map<string, TableState>): boolean {
  if (state.index.complete) return false;
  wordy.add(table);
  state.stale = true;
  const key = indexKey(table, state.columns);
  if (tables.get(key) === state) tables.delete(key);
  return true;
}

/** Reads rows again into the index (those gone leave it). */
async function reread(runner: StatementRunner, state: TableState, table: string, rowids: number[]): Promise<void> {
  if (rowids.length === 0) return;
  state.answers.clear();
  state.version++;
  const ids = state.idOrder.holds ? `"id" as "quire:id", ${neighbours(quote(table))}, ` : '';
  const rows = await runner.all(
    `select rowid as "quire:rowid", ${ids}${state.columns.map(quote).join(', ')} from ${quote(table)} as row
      where rowid in (select value from json_each(?))`,
    [JSON.stringify(rowids)],
  );
  const found = new Set<number>();
  for (const row of rows) {
    const rowid = Number(row['quire:rowid']);
    found.add(rowid);
    if (ids) state.idOrder.check(row['quire:id'], row['quire:before'], row['quire:after']);
    state.index.set(
      rowid,
      state.columns.map((column) => row[column]),
    );
  }
  for (const rowid of rowids) if (!found.has(rowid)) state.index.delete(rowid);
}

/**
 * The rowids noted in the pending table of `table` (a saved index's marker among them: a negative
 * rowid, which no row has, so reading it again finds nothing).
 */
export async function pendingRowids(read: Read, table: string): Promise<number[]> {
  const rows = await read(`select rowid as r from ${quote(searchPendingName(table))}`, []);
  return rows.map((row) => Number(row.r));
}

/** Tells the in-memory indexes of `table` which rows a flush is moving out of the pending table. */
export async function noteFlushed(db: Kysely<unknown>, table: string): Promise<void> {
  const live = byTable.get(table);
  if (!live || live.size === 0) return;
  const pending = await pendingRowids(readViaKysely(db), table);
  for (const ref of live) {
    const state = ref.deref();
    if (!state || state.stale) {
      live.delete(ref);
      continue;
    }
    for (const rowid of pending) state.dirty.add(rowid);
  }
}

/**
 * Whether the connection's index of `table` over `columns` (by default the default locale's) is
 * ready, whether it was read back rather than built, and its rows written since the build.
 */
export function memoryIndexOf(
  runner: StatementRunner,
  table: string,
  columns?: readonly string[],
): { ready: boolean; loaded: boolean; writtenSinceBuild: number } | null {
  const indexes = indexesOf(runner);
  const state = columns
    ? indexes.tables.get(indexKey(table, columns))
    : indexes.of(table).find(([, held]) => defaultLocaleColumns(held.columns))?.[1];
  return state ? { ready: state.ready, loaded: state.loaded, writtenSinceBuild: state.index.writtenSinceBuild } : null;
}

/** A connection's indexes (kept under its own runner: see StatementRunner.wraps). */
export function indexesOf(runner: StatementRunner): ConnectionIndexes {
  let indexes = connections.get(connectionRunner(runner));
  if (!indexes) {
    indexes = new ConnectionIndexes();
    connections.set(connectionRunner(runner), indexes);
  }
  return indexes;
}

/** A connection's map of index states, by `indexKey`. */
export function tablesOf(runner: StatementRunner): Map<string, TableState> {
  return indexesOf(runner).tables;
}
