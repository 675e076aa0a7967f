import { type Kysely, sql } from 'kysely';
import type { MemorySearch, MemorySearchPage, MemorySearchQuery } from './engine.js';
import { sameColumns } from './engine.js';
import { searchPendingName } from './internal-names.js';
import { IdOrder, neighbours } from './search-id-order.js';
import { answerable, MemorySearchIndex } from './search-memory-index.js';
import { countWithConditions, pageOfMatches, quote, unsureRowsMatching } from './search-memory-pages.js';
import type { PostingBitmap } from './search-posting-bitmap.js';
import { notedSearchColumns, readViaKysely, type SchemaRead } from './sqlite-search-triggers.js';
import type { StatementRunner } from './statement-runner.js';

/**
 * SQLite's in-memory search (see search-memory-index.ts), kept per table and per reading
 * connection (its statement runner), and always in step with the table before it answers:
 *
 * - It is built in the background, in steps of at most about BUILD_STEP_MS that yield the event
 *   loop, so gets and lists go on being answered meanwhile. A search waits for the build in progress
 *   (or starts it) and is then answered by the index. It used to be answered through SQL meanwhile:
 *   at 1M rows those were synchronous queries of 1-7 s, and every build step waited behind one, so
 *   under a flood of searches the index never got built. `count` and `list` return null (SQL
 *   answers) only for what the index cannot answer, or when a build failed, or when writes kept
 *   committing under it (a search that comes during a write waits for its commit: MAX_WRITE_WAITS).
 * - Every search first compares the connection's `total_changes()`: when this connection wrote
 *   anything since, the rows in the table's pending table (which the search triggers fill on every
 *   insert, update of a search column and delete) are read again, with the rows a flush moved out
 *   of it meanwhile (`noteFlushed`). A commit by another connection (`data_version`) or any schema
 *   change (`schema_version`) starts a new build instead.
 * - Searches read on the reader's connection only while no write is under way (the repository's
 *   reader never reads mid-transaction), and the build reads through Kysely, which waits for any
 *   transaction to end, so nothing uncommitted reaches the index.
 * - The first list or get of a table (`warm`) starts its build, later and in the background.
 * - Tables whose triggers are not exactly today's (sqlite-search-triggers.ts) are searched by the
 *   plain scan: nothing would tell the index about their changes.
 */

/** Rows read per statement of a build. */
const BUILD_CHUNK = 256;
/**
 * How long a build step reads before it yields to the event loop. Measured at 1M rows: steps of
 * 2,048 rows held the loop about 100 ms each, and gets during the build fell to 179 req/s.
 */
const BUILD_STEP_MS = 8;
/** Builds a search waits for, at most (after them, or after a failed build, SQL answers). */
const MAX_BUILD_ROUNDS = 3;
/**
 * Writes a search waits for, at most, before SQL answers it: a write's transaction that is open
 * when the search comes (or commits while its page is put together). SQL waits for the write too
 * (Kysely queues it) and then scans every row: measured at 100k rows under 9 reads to 1 create,
 * the scan's folding alone was 14 % of the server's CPU, and its queries half.
 */
const MAX_WRITE_WAITS = 3;
/** Longest a search waits for a build before SQL answers it (a guard against a build that hangs). */
const BUILD_WAIT_MS = 120_000;

/** How a build ended: its index is ready, or the table changed under it, or it failed. */
type BuildEnd = 'ready' | 'stale' | 'failed';

interface TableState {
  columns: readonly string[];
  index: MemorySearchIndex;
  ready: boolean;
  /** Set when the table or database changed under a build: the state is dropped. */
  stale: boolean;
  token: number;
  schemaVersion: number;
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
}

/** Answers kept per table (each at most 8 KiB per 65,536 rows). */
const MAX_ANSWERS = 32;

/** Tables' states by reading connection. */
const states = new WeakMap<StatementRunner, Map<string, TableState>>();
/** Builds in progress by reading connection and table (one per table: searches share it). */
const building = new WeakMap<StatementRunner, Map<string, Promise<BuildEnd>>>();
/** Search columns (the registry's arrays, new on every reload) of tables the index cannot serve. */
const unindexable = new WeakSet<readonly string[]>();
/** Tables with more distinct words than an index keeps: their indexes keep word trigrams. */
const wordy = new Set<string>();
/** Every live state by table name, so a flush can tell them (a rowid read again is never wrong). */
const byTable = new Map<string, Set<WeakRef<TableState>>>();

/** Whether a write transaction is open on the runner's connection (when the runner can tell). */
function inTransaction(runner: StatementRunner): boolean {
  return (runner as { transaction?: { open?: boolean } }).transaction?.open === true;
}

/** Runs a read: straight on the connection (a runner), or queued through Kysely. */
type Read = SchemaRead;

const viaRunner =
  (runner: StatementRunner): Read =>
  (text, parameters) =>
    runner.all(text, parameters);

async function versions(read: Read): Promise<{ schemaVersion: number; totalChanges: number }> {
  const [row] = await read('select (select schema_version from pragma_schema_version) as s, total_changes() as c', []);
  return { schemaVersion: Number(row.s), totalChanges: Number(row.c) };
}

/** Whether the table's triggers note every change to `columns` in its pending table. */
async function notesChanges(read: Read, table: string, columns: readonly string[]): Promise<boolean> {
  const noted = await notedSearchColumns(read, table);
  return noted !== null && sameColumns(noted, columns);
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

async function startBuild(query: MemorySearchQuery, tables: Map<string, TableState>): Promise<BuildEnd> {
  const { runner, table, columns } = query;
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
  };
  tables.set(table, state);
  const live = byTable.get(table) ?? new Set<WeakRef<TableState>>();
  byTable.set(table, live);
  live.add(new WeakRef(state));
  const id = state.idOrder.holds ? `"id" as "quire:id", ` : '';
  const select = `select rowid as "quire:rowid", ${id}${columns.map(quote).join(', ')} from ${quote(table)}
    where rowid > ? order by rowid limit ${BUILD_CHUNK}`;
  let last = Number.MIN_SAFE_INTEGER;
  try {
    for (let done = false; !done; ) {
      await new Promise((resolve) => setImmediate(resolve));
      if (state.stale || tables.get(table) !== state) return 'stale';
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
    if (incomplete(state, table, tables)) return 'stale';
    state.ready = true;
    return 'ready';
  } catch {
    // The table went away or the database closed: the next search starts afresh.
    if (tables.get(table) === state) tables.delete(table);
    return 'failed';
  }
}

/** The build of the table's index in progress on the query's connection, started if there is none. */
function buildOf(query: MemorySearchQuery): Promise<BuildEnd> {
  const { runner, table } = query;
  const builds = building.get(runner) ?? new Map<string, Promise<BuildEnd>>();
  building.set(runner, builds);
  let build = builds.get(table);
  if (!build) {
    const started = startBuild(query, tablesOf(runner))
      .catch((): BuildEnd => 'failed')
      .finally(() => {
        if (builds.get(table) === started) builds.delete(table);
      });
    build = started;
    builds.set(table, build);
  }
  return build;
}

/** A build's end, or 'failed' once BUILD_WAIT_MS have passed. */
async function endOf(build: Promise<BuildEnd>): Promise<BuildEnd> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<BuildEnd>((resolve) => {
    timer = setTimeout(() => resolve('failed'), BUILD_WAIT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([build, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The table's state, brought in step with the database, or null when it cannot answer now (still
 * building, or a write is under way, or the table is not indexable here).
 */
async function current(query: MemorySearchQuery): Promise<TableState | null> {
  const { runner, columns } = query;
  if (!query.keywords.every(answerable)) return null;
  for (let wait = 0; inTransaction(runner); wait++) {
    if (wait === MAX_WRITE_WAITS) return null;
    // Kysely runs this once the write's transaction has let go of the connection.
    await readViaKysely(query.db)('select 1', []);
  }
  for (let round = 0; round < MAX_BUILD_ROUNDS; round++) {
    if (unindexable.has(columns)) return null;
    const state = await inStep(query);
    if (state) return state;
    // No index in step: wait for its build (concurrent searches share one), then look again.
    if ((await endOf(buildOf(query))) === 'failed') return null;
  }
  return null;
}

/** The table's index when it is built and brought in step with the database, or null. */
async function inStep(query: MemorySearchQuery): Promise<TableState | null> {
  const { runner, table, columns } = query;
  const tables = tablesOf(runner);
  const state = tables.get(table);
  if (!state) return null;
  if (state.stale || !sameColumns(state.columns, columns) || state.token !== runner.externalChangeToken()) {
    state.stale = true;
    tables.delete(table);
    return null;
  }
  if (!state.ready) return null;
  const seen = await versions(viaRunner(runner));
  if (seen.schemaVersion !== state.schemaVersion) {
    state.stale = true;
    tables.delete(table);
    return null;
  }
  if (seen.totalChanges !== state.totalChanges || state.dirty.size > 0) {
    const pending = await runner.all(`select rowid as r from ${quote(searchPendingName(table))}`, []);
    const rowids = new Set(state.dirty);
    state.dirty.clear();
    for (const row of pending) rowids.add(Number(row.r));
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
function incomplete(state: TableState, table: string, tables: Map<string, TableState>): boolean {
  if (state.index.complete) return false;
  wordy.add(table);
  state.stale = true;
  if (tables.get(table) === state) tables.delete(table);
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

/** The rows matching the search: confirmed by the index, plus the unsure ones SQL confirms. */
async function matching(query: MemorySearchQuery, state: TableState): Promise<PostingBitmap> {
  const key = JSON.stringify(query.keywords);
  const known = state.answers.get(key);
  if (known) return known;
  const version = state.version;
  const hits = await search(query, state);
  // Unless the index changed meanwhile (a re-read while SQL checked the unsure rows).
  if (state.version !== version) return hits;
  if (state.answers.size >= MAX_ANSWERS) state.answers.delete(state.answers.keys().next().value as string);
  state.answers.set(key, hits);
  return hits;
}

async function search(query: MemorySearchQuery, state: TableState): Promise<PostingBitmap> {
  const { hits, unsure } = state.index.search(query.keywords);
  if (unsure.length > 0) for (const rowid of await unsureRowsMatching(query, unsure)) hits.add(rowid);
  return hits;
}

/**
 * An answer put together on the index brought in step: the matches, then `answer`'s reads of the
 * table. When this connection wrote meanwhile (a write committed between those reads), it is put
 * together again, up to MAX_WRITE_WAITS times; null leaves it to SQL. `known` gives the answer the
 * matches alone settle (no read of the table, so nothing to check), else undefined.
 */
async function onIndex<T>(
  query: MemorySearchQuery,
  answer: (state: TableState, hits: PostingBitmap) => Promise<T>,
  known: (hits: PostingBitmap) => T | undefined = () => undefined,
): Promise<T | null> {
  for (let round = 0; round < MAX_WRITE_WAITS; round++) {
    const state = await current(query);
    if (!state) return null;
    const seen = { changes: state.totalChanges, version: state.version };
    const hits = await matching(query, state);
    const settled = known(hits);
    if (settled !== undefined) return settled;
    const value = await answer(state, hits);
    if (await unchanged(query.runner, state, seen)) return value;
  }
  return null;
}

/**
 * Whether this connection changed nothing since the index was brought in step (an answer put
 * together from several statements is then one state's).
 */
async function unchanged(
  runner: StatementRunner,
  state: TableState,
  seen: { changes: number; version: number },
): Promise<boolean> {
  return state.version === seen.version && (await versions(viaRunner(runner))).totalChanges === seen.changes;
}

function count(query: MemorySearchQuery): Promise<number | null> {
  return onIndex(
    query,
    (state, hits) => countWithConditions(query, state.index, hits),
    (hits) => (query.equals.length === 0 || hits.size === 0 ? hits.size : undefined),
  );
}

function list(query: MemorySearchQuery, pageOf: MemorySearchPage): Promise<Record<string, unknown>[] | null> {
  return onIndex(query, (state, hits) => pageOfMatches(query, hits, state.index, state.idOrder, pageOf));
}

/** Tells the in-memory indexes of `table` which rows a flush is moving out of the pending table. */
export async function noteFlushed(db: Kysely<unknown>, table: string): Promise<void> {
  const live = byTable.get(table);
  if (!live || live.size === 0) return;
  const pending = await sql<{ r: number }>`select rowid as r from ${sql.id(searchPendingName(table))}`.execute(db);
  for (const ref of live) {
    const state = ref.deref();
    if (!state || state.stale) {
      live.delete(ref);
      continue;
    }
    for (const row of pending.rows) state.dirty.add(Number(row.r));
  }
}

/** Tables already warmed, by reading connection. */
const warmed = new WeakMap<StatementRunner, Set<string>>();

/** Starts the build of a table's index (the columns its triggers watch) on its first read. */
function warm(db: Kysely<unknown>, runner: StatementRunner, table: string): void {
  const tables = warmed.get(runner) ?? new Set<string>();
  warmed.set(runner, tables);
  if (tables.has(table)) return;
  tables.add(table);
  // Later, and through Kysely: nothing of this runs inside the read that asked.
  setImmediate(() => {
    void (async () => {
      const busy = () => states.get(runner)?.has(table) || building.get(runner)?.has(table);
      if (busy()) return;
      const columns = await notedSearchColumns(readViaKysely(db), table);
      if (!columns || busy()) return;
      await buildOf({ db, runner, table, columns, keywords: [], equals: [] });
    })().catch(() => {});
  }).unref();
}

/** A connection's map of table states. */
function tablesOf(runner: StatementRunner): Map<string, TableState> {
  let tables = states.get(runner);
  if (!tables) {
    tables = new Map<string, TableState>();
    states.set(runner, tables);
  }
  return tables;
}

/** SQLite's in-memory search (see the module comment). */
export const sqliteMemorySearch: MemorySearch = { count, list, warm };
