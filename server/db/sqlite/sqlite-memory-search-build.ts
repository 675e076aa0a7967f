import type { Kysely } from 'kysely';
import type { MemorySearchQuery, SavedSearchIndexes } from '../../search/search-engine.js';
import { coversColumns } from '../../search/search-engine.js';
import { IdOrder } from '../../search/search-id-order.js';
import {
  defaultColumnsAmong,
  defaultLocaleColumns,
  indexKey,
  tableOfKey,
  unindexable,
  worn,
} from '../../search/search-index-tables.js';
import { MemorySearchIndex } from '../../search/search-memory-index.js';
import { within } from '../../search/search-memory-shared.js';
import { readSavedTables, SNAPSHOT_MIN_ROWS } from '../../search/search-snapshot-files.js';
import type { StatementRunner } from '../statement-runner.js';
import { quote } from './sqlite-memory-pages.js';
import {
  type BuildEnd,
  byTable,
  incomplete,
  indexesOf,
  inStep,
  pendingRowids,
  type Read,
  type TableState,
  tablesOf,
  versions,
  wordy,
} from './sqlite-memory-search-state.js';
import {
  keepSavedIndexesIn,
  loadSnapshot,
  saveSnapshot,
  snapshotFolder,
  snapshotsOf,
} from './sqlite-search-snapshot.js';
import { notedSearchColumns, readViaKysely } from './sqlite-search-triggers.js';

/**
 * How the in-memory search index of a SQLite content table comes to be (see sqlite-memory-search.ts):
 * read back from the file saved at the last clean stop when that still describes the table
 * (sqlite-search-snapshot.ts), else built from the table in the background; and saved at a clean stop.
 */

/** Rows read per statement of a build. */
const BUILD_CHUNK = 256;
/**
 * How long a build step reads before it yields to the event loop: short, so that gets and lists
 * answered during a build wait little behind it.
 */
const BUILD_STEP_MS = 8;
/** Longest a search waits for a build before SQL answers it (a guard against a build that hangs). */
const BUILD_WAIT_MS = 120_000;

/**
 * Whether the table's triggers note every change to `columns` in its pending table (they watch
 * every locale's search columns; a table made before they did is searched in another locale by
 * the plain scan until its type or the locales change).
 */
async function notesChanges(read: Read, table: string, columns: readonly string[]): Promise<boolean> {
  const noted = await notedSearchColumns(read, table);
  return noted !== null && coversColumns(noted, columns);
}

/**
 * Whether `table` has an `id` column that SQLite orders as `IdOrder` compares (binary: no collation
 * named in the table's statement).
 */
async function comparableIds(read: Read, table: string): Promise<boolean> {
  const [row] = await read(
    `select (select count(*) from pragma_table_info(?) where name = 'id') as id,
      (select sql from sqlite_master where type = 'table' and name = ?) as statement`,
    [table, table],
  );
  return Number(row?.id) === 1 && !/collate/i.test(String(row?.statement ?? ''));
}

/**
 * Builds the table's index. `replacing`: a build from the table in the background while that state
 * answers, kept apart in `slot` (a map of its own) and put in its place once ready (see
 * rebuildIfWorn); otherwise the state goes in `tables` at once (searches wait for it), read back
 * from a saved file when there is one.
 */
async function startBuild(
  query: MemorySearchQuery,
  tables: Map<string, TableState>,
  replacing?: { state: TableState; slot: Map<string, TableState> },
): Promise<BuildEnd> {
  const { runner, table, columns } = query;
  const key = indexKey(table, columns);
  const slot = replacing?.slot ?? tables;
  // A build goes on while its state is the one kept, and (in the background) the one it replaces is in use.
  const current = (state: TableState) =>
    !state.stale && slot.get(key) === state && (!replacing || tables.get(key) === replacing.state);
  // Through Kysely, which waits for any transaction on the connection to end: the build runs in the
  // background, outside any request, so it must never read a write's uncommitted rows.
  const read = readViaKysely(query.db);
  if (!(await notesChanges(read, table, columns))) {
    unindexable.add(columns);
    return 'failed';
  }
  const state: TableState = {
    columns,
    index: new MemorySearchIndex(columns.length, wordy.has(table)),
    ready: false,
    stale: false,
    token: runner.externalChangeToken(),
    ...(await versions(read)),
    dirty: new Set(),
    answers: new Map(),
    version: 0,
    idOrder: new IdOrder(await comparableIds(read, table)),
    loaded: false,
  };
  slot.set(key, state);
  const live = byTable.get(table) ?? new Set<WeakRef<TableState>>();
  byTable.set(table, live);
  live.add(new WeakRef(state));
  if (!replacing && (await loaded(read, query, state, tables))) return state.ready ? 'ready' : 'stale';
  const id = state.idOrder.holds ? `"id" as "quire:id", ` : '';
  const select = `select rowid as "quire:rowid", ${id}${columns.map(quote).join(', ')} from ${quote(table)}
    where rowid > ? order by rowid limit ${BUILD_CHUNK}`;
  let last = Number.MIN_SAFE_INTEGER;
  try {
    for (let done = false; !done; ) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!current(state)) return 'stale';
      const stepStarted = performance.now();
      do {
        const rows = await read(select, [last]);
        for (const row of rows) {
          state.index.set(
            Number(row['quire:rowid']),
            columns.map((column) => row[column]),
          );
          state.idOrder.append(row['quire:id']);
        }
        done = rows.length < BUILD_CHUNK;
        if (!done) last = Number(rows[rows.length - 1]['quire:rowid']);
      } while (!done && performance.now() - stepStarted < BUILD_STEP_MS);
    }
    state.index.seal();
    // Too many distinct words: the next build keeps word trigrams.
    if (incomplete(state, table, slot)) return 'stale';
    if (replacing) {
      if (!current(state)) return 'stale';
      // In step from here as any state: rows written during the build are in the pending table or
      // noted dirty by flushes (byTable), and are read again before it answers.
      tables.set(key, state);
      replacing.state.stale = true;
    }
    state.ready = true;
    return 'ready';
  } catch {
    // The table went away or the database closed: the next search starts afresh.
    if (slot.get(key) === state) slot.delete(key);
    return 'failed';
  }
}

/**
 * Whether the table's index was saved at the last clean stop and read back into `state` (see
 * sqlite-search-snapshot.ts); its rows noted as changed since are read again before it answers.
 * Only the default locale's index is saved (another locale's is built at its first search).
 */
async function loaded(read: Read, query: MemorySearchQuery, state: TableState, tables: Map<string, TableState>) {
  const { runner, table, columns } = query;
  const snapshots = snapshotsOf(runner);
  if (!snapshots || !defaultLocaleColumns(columns)) return false;
  const saved = await loadSnapshot(read, snapshots.folder, table, columns, (reason) =>
    snapshots.onUnused?.(table, reason),
  );
  if (!saved) return false;
  if (state.stale || tables.get(indexKey(table, columns)) !== state) return true;
  state.index = saved.index;
  state.loaded = true;
  state.idOrder = new IdOrder(saved.idOrderHolds && state.idOrder.holds);
  for (const rowid of await pendingRowids(read, table)) state.dirty.add(rowid);
  state.ready = !incomplete(state, table, tables);
  return true;
}

/**
 * Saves the built indexes of the runner's connection, brought in step, for the next start (see
 * sqlite-search-snapshot.ts): at a clean stop, when nothing writes any more. Returns the tables saved.
 */
async function saveIndexes(db: Kysely<unknown>, runner: StatementRunner): Promise<string[]> {
  const snapshots = snapshotsOf(runner);
  const saved: string[] = [];
  if (!snapshots) return saved;
  for (const [key, state] of [...tablesOf(runner)]) {
    const table = tableOfKey(key);
    // A file per table: the default locale's index (another locale's is built at its first search).
    if (!defaultLocaleColumns(state.columns)) continue;
    // Saved however many rows were written since the build (held apart, in its overlay): the next
    // start answers with it at once and, past REBUILD_SHARE, builds it again in the background at
    // its first search (rebuildIfWorn), rather than making that search wait for a whole build.
    if (!state.ready || state.stale || state.index.rows < snapshots.minRows) continue;
    const query = { db, runner, table, columns: state.columns, keywords: [], equals: [] };
    if ((await inStep(query)) !== state) continue;
    const { index, columns, idOrder, token } = state;
    if (await saveSnapshot(db, runner, snapshots.folder, table, { index, columns, idOrderHolds: idOrder.holds }, token))
      saved.push(table);
  }
  return saved;
}

/**
 * Builds the search index of `table` (of the database at `file`, open on `runner`) and saves it for
 * the next start, when the table has `minRows` rows or more: after an import, so that a server
 * started on the database answers its first search without building the index first. Returns
 * whether it was saved.
 */
async function saveIndexNow(
  db: Kysely<unknown>,
  runner: StatementRunner,
  file: string,
  table: string,
  minRows = SNAPSHOT_MIN_ROWS,
): Promise<boolean> {
  const read = readViaKysely(db);
  const noted = await notedSearchColumns(read, table);
  if (!noted) return false;
  const columns = defaultColumnsAmong(noted);
  const [{ n }] = await read(`select count(*) as n from ${quote(table)}`, []);
  if (Number(n) < minRows) return false;
  keepSavedIndexesIn(runner, snapshotFolder(file), minRows);
  const query = { db, runner, table, columns, keywords: [], equals: [] };
  for (let round = 0; round < 2; round++) {
    // A build that ends 'stale' (the table has more distinct words than a vocabulary keeps) is
    // followed by one with word trigrams.
    if ((await endOf(buildOf(query))) === 'failed') return false;
    if (tablesOf(runner).get(indexKey(table, columns))?.ready) break;
  }
  return (await saveIndexes(db, runner)).includes(table);
}

/** The build of the table's index in progress on the query's connection, started if there is none. */
export function buildOf(query: MemorySearchQuery): Promise<BuildEnd> {
  const indexes = indexesOf(query.runner);
  return indexes.buildOf(indexKey(query.table, query.columns), () =>
    startBuild(query, indexes.tables).catch((): BuildEnd => 'failed'),
  );
}

/**
 * Rows written since the build, as a share of its rows (plus REBUILD_MIN), past which the index is
 * built again in the background at a search, so that searches stop paying for the rows held apart.
 * An index saved past it (writes without searches) is built again at the next start's first search.
 */
const REBUILD_SHARE = 0.2;
const REBUILD_MIN = 1000;

/**
 * Starts building `state`'s table again in the background when many rows were written since its
 * build (each such row is held apart, and every search pays for them); `state` answers meanwhile
 * and is replaced once the new index is ready.
 */
export function rebuildIfWorn(query: MemorySearchQuery, state: TableState): void {
  if (!worn(state.index, REBUILD_SHARE, REBUILD_MIN)) return;
  const { tables, rebuilding } = indexesOf(query.runner);
  const key = indexKey(query.table, query.columns);
  if (rebuilding.has(key)) return;
  rebuilding.add(key);
  // The new state is kept apart, in a map of its own, until it takes `state`'s place.
  void startBuild(query, tables, { state, slot: new Map() })
    .catch(() => 'failed')
    .finally(() => rebuilding.delete(key));
}

/** A build's end, or 'failed' once BUILD_WAIT_MS have passed. */
export function endOf(build: Promise<BuildEnd>): Promise<BuildEnd> {
  return within(build, BUILD_WAIT_MS, 'failed');
}

/**
 * Starts the build of a table's index on its first read: over the default locale's columns among
 * those its triggers watch (another locale's is built at its first search).
 */
export function warm(db: Kysely<unknown>, runner: StatementRunner | undefined, table: string): void {
  if (!runner) return;
  const indexes = indexesOf(runner);
  // Through Kysely, which waits for any transaction on the connection to end.
  indexes.warm(table, async () => {
    const noted = await notedSearchColumns(readViaKysely(db), table);
    if (!noted) return;
    const columns = defaultColumnsAmong(noted);
    if (indexes.busy(indexKey(table, columns))) return;
    await buildOf({ db, runner, table, columns, keywords: [], equals: [] });
  });
}

/**
 * SQLite's saved indexes (sqlite-search-snapshot.ts): a file per table in a folder beside the
 * database file, for each reading connection's indexes. A database in memory saves none.
 */
export const sqliteSavedIndexes: SavedSearchIndexes = {
  async keepSavedIndexes(_db, runner, place) {
    if (!runner || place.file === null || place.file === ':memory:') return [];
    const folder = snapshotFolder(place.file);
    // Read from now on: the database may still be opening.
    const tables = readSavedTables(folder);
    keepSavedIndexesIn(runner, folder, place.minRows, place.onUnused);
    return tables;
  },
  saveIndexes: async (db, runner) => (runner ? saveIndexes(db, runner) : []),
  saveIndexNow: async (db, runner, table, place) =>
    runner !== undefined &&
    place.file !== null &&
    place.file !== ':memory:' &&
    saveIndexNow(db, runner, place.file, table, place.minRows),
};
