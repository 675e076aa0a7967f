import { type Kysely, sql } from 'kysely';
import { coversColumns, sameColumns } from '../../search/search-engine.js';
import {
  defaultColumnsAmong,
  defaultLocaleColumns,
  IndexTables,
  indexKey,
  unindexable,
} from '../../search/search-index-tables.js';
import { MemorySearchIndex } from '../../search/search-memory-index.js';
import type { PostingBitmap } from '../../search/search-posting-bitmap.js';
import { searchTextName } from '../queries/internal-names.js';
import { IdSequence } from './postgres-id-sequence.js';
import { changeNumber, registryVersionOf } from './postgres-row-changes.js';
import { ROW_NUMBER, SEARCH_REMOVED, searchTableOid, searchTextColumns, WRITTEN_BY } from './postgres-search-index.js';
import { ValueColumns } from './postgres-value-columns.js';

/**
 * How PostgreSQL's in-memory search indexes (postgres-memory-search.ts) come to be and stay in
 * step: the states kept per database, table and searched columns, the build from one snapshot, and
 * the catch-up that takes in what committed since.
 *
 * An index over another locale's columns (server/locales/locale-search-columns.ts) reads them from
 * the content table as the default's index reads its columns, and follows their writes through the
 * search table's rows as well: every row write upserts its search row (`quire:x` moves) whichever
 * columns it changed, and a change of the locales or of the type makes the search table again.
 * The search table itself folds the default locale's columns only (its SQL answers those).
 */

/** Rows fetched per step of a build (the event loop runs between steps). */
const BUILD_CHUNK = 2000;
/** Row numbers the index holds: the bitmaps' 32 bits, kept clear of the sign bit. */
const MAX_ROW_NUMBER = 0x7fff_ffff;
/** Rows written since the build, as a share of the index's rows (plus REBUILD_MIN), that start a new build. */
export const REBUILD_SHARE = 0.25;
export const REBUILD_MIN = 1000;
/**
 * An index not brought in step for this long is built again in the background (it still answers,
 * brought in step); after MAX_STEP_AGE_MS it is no longer trusted to find every removal (they are
 * kept REMOVED_KEPT) and a search waits for the new build. Days, so that an index saved at a clean
 * stop (postgres-search-snapshot.ts) serves the next start after a night or a weekend, and an
 * idle server's index is not built again at its next search.
 */
export const REBUILD_AGE_MS = 3 * 24 * 3_600_000;
export const MAX_STEP_AGE_MS = 6 * 24 * 3_600_000;
/**
 * How long removed row numbers are kept after their transaction began (any server's index older
 * than this was built again). A row each; Quire's deletes are an editor's, or emptying the trash.
 */
const REMOVED_KEPT = '7 days';
/** How often a server deletes the removed row numbers older than REMOVED_KEPT. */
const PRUNE_EVERY_MS = 10 * 60_000;

/** One table's index and what it is in step with. */
export interface TableState {
  columns: readonly string[];
  index: MemorySearchIndex;
  /** The row numbers in id order (postgres-id-sequence.ts). */
  sequence: IdSequence;
  /** The select columns' values by row number (postgres-value-columns.ts). */
  values: ValueColumns;
  /** `pg_current_snapshot()` of the statement the index is in step with. */
  snapshot: string;
  /** The table's change number read in that statement. */
  number: string;
  /** The search table's oid then (a search table made again means a new build). */
  side: string;
  /** When the index was last known in step (Date.now()). */
  checkedAt: number;
  answers: Map<string, PostingBitmap>;
  /** The catch-up in progress (searches arriving meanwhile share it). */
  catchingUp: Promise<boolean> | null;
  /**
   * Whether the index holds every row of the content table (a row written by SQL behind Quire's
   * back has no search row, so no number), and when that was known (Date.now()): the select
   * columns' tallies count lists only while it does. Undefined until first checked.
   */
  holdsEveryRow?: { holds: boolean; at: number };
}

/** A table's state for an index in step with `snapshot` (no answers kept, no catch-up under way). */
export function inStepAt(state: Omit<TableState, 'answers' | 'catchingUp'>): TableState {
  return { ...state, answers: new Map(), catchingUp: null };
}

/** A database's indexes and builds in progress (by `indexKey`), and tables whose vocabulary needs word trigrams. */
export class DatabaseState extends IndexTables<TableState> {
  readonly wordy = new Set<string>();
  /** Reads the table's saved index back instead of building it (postgres-search-snapshot.ts). */
  load?: (table: string, columns: readonly string[]) => Promise<TableState | null>;
  prunedAt = 0;
  /** Answers the index gave (searches and counts), for tests to tell it from SQL. */
  answered = 0;
  /** Indexes read back rather than built, for tests. */
  loaded = 0;
}

const databases = new WeakMap<Kysely<unknown>, DatabaseState>();

export function stateOf(db: Kysely<unknown>): DatabaseState {
  let state = databases.get(db);
  if (!state) {
    state = new DatabaseState();
    databases.set(db, state);
  }
  return state;
}

/**
 * Builds `table`'s index over `columns` (if none is being built), in the background, or reads it
 * back when it was saved (the default locale's only, and while none is held: one held was dropped
 * as not in step).
 */
export function startBuild(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const database = stateOf(db);
  const key = indexKey(table, columns);
  return database.buildOf(key, () =>
    (async () => {
      const saved =
        database.tables.has(key) || !defaultLocaleColumns(columns) ? null : await database.load?.(table, columns);
      if (saved) {
        database.tables.set(key, saved);
        database.loaded++;
        return;
      }
      for (let round = 0; round < 2; round++) {
        const state = await built(db, table, columns, database.wordy.has(table));
        if (!state) return;
        // Too many distinct words for the vocabulary: build again with word trigrams.
        if (!state.index.complete && !database.wordy.has(table)) {
          database.wordy.add(table);
          continue;
        }
        if (state.index.complete) database.tables.set(key, state);
        return;
      }
    })().catch(() => {
      // The table went away or the database closed: SQL answers, and the next read tries again.
    }),
  );
}

/** An index of `table` read from one snapshot, or null when its search table does not fit. */
async function built(
  db: Kysely<unknown>,
  table: string,
  columns: readonly string[],
  wordTrigrams: boolean,
): Promise<TableState | null> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      // The first statement takes the transaction's snapshot: the number and the rows are one state.
      const head = await sql<{ snapshot: string; number: string; side: string | null }>`select
        pg_current_snapshot()::text as snapshot, ${changeNumber(table)} as number,
        ${searchTableOid(table)} as side`.execute(trx);
      const { snapshot, number, side } = head.rows[0];
      const indexed = await searchTextColumns(trx, table);
      // The search table follows the default locale's columns; another locale's are read from the
      // content table, their writes followed through the same search rows.
      if (side === null || !indexed || !coversColumns(indexed, defaultColumnsAmong(columns))) {
        unindexable.add(columns);
        return null;
      }
      const index = new MemorySearchIndex(columns.length, wordTrigrams);
      const kept = new ValueColumns(await selectColumnsOf(trx, table));
      // The content table's own values: the index folds them as the search table's text was folded
      // (folding folded text again is not always the same: `T` and a combining diaeresis).
      await sql`declare quire_build no scroll cursor for
        select s.${sql.id(ROW_NUMBER)} as n, ${rowValues(columns, kept.names)} from ${sql.id(searchTextName(table))} s
        join ${sql.id(table)} t on t.id = s.id order by s.${sql.id(ROW_NUMBER)}`.execute(trx);
      for await (const rows of cursorChunks<Record<string, unknown>>(trx, BUILD_CHUNK)) {
        for (const row of rows) {
          const n = Number(row.n);
          if (n > MAX_ROW_NUMBER) {
            unindexable.add(columns);
            return null;
          }
          index.set(
            n,
            columns.map((_, i) => row[`s${i}`]),
          );
          kept.set(
            n,
            kept.names.map((_, i) => row[`v${i}`]),
          );
        }
      }
      index.seal();
      const sequence = new IdSequence();
      await sql`close quire_build`.execute(trx);
      await sql`declare quire_build no scroll cursor for
        select s.${sql.id(ROW_NUMBER)} as n, t.id from ${sql.id(searchTextName(table))} s
        join ${sql.id(table)} t on t.id = s.id order by t.id`.execute(trx);
      for await (const rows of cursorChunks<{ n: string; id: unknown }>(trx, BUILD_CHUNK * 4)) {
        for (const row of rows) sequence.append(Number(row.n), row.id);
        if (!sequence.holds) break;
      }
      return inStepAt({ columns, index, sequence, values: kept, snapshot, number, side, checkedAt: Date.now() });
    });
}

/**
 * The content table's values a build and a catch-up read: the search columns as `s0`, `s1`, ... and
 * the select columns as `v0`, `v1`, ... (names no column of the table can clash with).
 */
function rowValues(columns: readonly string[], selects: readonly string[]) {
  return sql.join([
    ...columns.map((column, i) => sql`t.${sql.id(column)} as ${sql.id(`s${i}`)}`),
    ...selects.map((column, i) => sql`t.${sql.id(column)} as ${sql.id(`v${i}`)}`),
  ]);
}

/** The select columns of `table`'s content type, as the registry says now. */
async function selectColumnsOf(db: Kysely<unknown>, table: string): Promise<string[]> {
  const { rows } = await sql<{ columns: string }>`select columns from quire_content_types
    where table_name = ${table}`.execute(db);
  return selectsOf(rows[0]?.columns ?? null);
}

/** The select columns named in a registry row's `columns`. */
function selectsOf(columns: string | null): string[] {
  if (columns === null) return [];
  const described = JSON.parse(columns) as { name: string; type: string }[];
  return described.filter((column) => column.type === 'select').map((column) => column.name);
}

/**
 * The rows of the transaction's cursor `quire_build`, `size` at a time, each chunk's successor
 * fetched while the caller takes it in (PostgreSQL reads on while JavaScript indexes), the event
 * loop run between chunks.
 */
async function* cursorChunks<R>(trx: Kysely<unknown>, size: number): AsyncGenerator<R[]> {
  const fetchNext = (): Promise<{ rows: R[] }> => sql<R>`fetch ${sql.raw(String(size))} from quire_build`.execute(trx);
  let next: Promise<{ rows: R[] }> | null = fetchNext();
  try {
    while (next) {
      const { rows }: { rows: R[] } = await next;
      next = rows.length === size ? fetchNext() : null;
      yield rows;
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    // A caller that stopped early leaves a fetch in flight: let it end before the transaction does.
    await next?.catch(() => {});
  }
}

/**
 * Takes in what committed since the index's snapshot (see the module comment). False when the
 * index cannot be brought in step (its search table was made again, or a row number out of
 * range): it is dropped and built again.
 */
export async function catchUp(db: Kysely<unknown>, table: string, state: TableState): Promise<boolean> {
  const side = sql.id(searchTextName(table));
  const kept = sql`${state.snapshot}::pg_snapshot`;
  const columns = sql.join(state.columns.map((column) => sql`t.${sql.id(column)}`));
  const selects = state.values.names.map((column) => sql`t.${sql.id(column)}`);
  const values = sql`json_build_array(${sql.join(selects.length > 0 ? selects : [sql`null`])})`;
  const { rows } = await sql<{
    snapshot: string;
    number: string;
    side: string | null;
    registry: string | null;
    written: unknown[][];
    removed: number[];
  }>`select pg_current_snapshot()::text as snapshot, ${changeNumber(table)} as number,
      ${searchTableOid(table)} as side,
      (select columns from quire_content_types where table_name = ${table}) as registry,
      (select coalesce(json_agg(json_build_array(s.${sql.id(ROW_NUMBER)}, t.id, ${values}, ${columns}) order by t.id), '[]'::json)
        from ${side} s
        join ${sql.id(table)} t on t.id = s.id
        where s.${sql.id(WRITTEN_BY)} >= pg_snapshot_xmin(${kept})
          and not pg_visible_in_snapshot(s.${sql.id(WRITTEN_BY)}, ${kept})) as written,
      (select coalesce(json_agg(r.n), '[]'::json) from ${sql.id(SEARCH_REMOVED)} r
        where r.table_name = ${table} and r.x >= pg_snapshot_xmin(${kept})
          and not pg_visible_in_snapshot(r.x, ${kept})) as removed`.execute(db);
  const now = rows[0];
  if (now.side !== state.side) return false;
  // A content-type change may add, rename or drop select columns: the rows' values of a new one
  // were never read. (Registry changes move the change number, so every one is seen here.)
  if (
    registryVersionOf(now.number) !== registryVersionOf(state.number) &&
    !sameColumns(selectsOf(now.registry), state.values.names)
  ) {
    return false;
  }
  const written = now.written;
  if (written.some(([n]) => Number(n) > MAX_ROW_NUMBER)) return false;
  state.answers.clear();
  for (const n of now.removed) {
    state.index.delete(Number(n));
    state.values.delete(Number(n));
  }
  for (const [n, id, selected, ...searched] of written) {
    state.index.set(Number(n), searched);
    state.sequence.written(Number(n), id);
    state.values.set(Number(n), selected as unknown[]);
  }
  state.snapshot = now.snapshot;
  state.number = now.number;
  state.checkedAt = Date.now();
  return true;
}

/** Deletes removed row numbers no index needs any more, now and then. */
export function prune(db: Kysely<unknown>): void {
  const database = stateOf(db);
  if (Date.now() - database.prunedAt < PRUNE_EVERY_MS) return;
  database.prunedAt = Date.now();
  void sql`delete from ${sql.id(SEARCH_REMOVED)} where at < now() - ${REMOVED_KEPT}::interval`
    .execute(db)
    .catch(() => {});
}
