import { type Kysely, sql } from 'kysely';
import { type MemoryIndexStore, memorySearchOn } from '../../search/search-answers.js';
import type { MemoryCondition, MemorySearch, MemorySearchRequest } from '../../search/search-engine.js';
import { sameColumns } from '../../search/search-engine.js';
import { defaultLocaleColumns, indexKey, unindexable, worn } from '../../search/search-index-tables.js';
import { rememberedMatches, within } from '../../search/search-memory-shared.js';
import { PostingBitmap } from '../../search/search-posting-bitmap.js';
import { searchTextName } from '../queries/internal-names.js';
import type { StatementRunner } from '../statement-runner.js';
import { countWithConditions, numberNow, pageOfMatches, unsureRowsMatching } from './postgres-memory-pages.js';
import {
  catchUp,
  MAX_STEP_AGE_MS,
  prune,
  REBUILD_AGE_MS,
  REBUILD_MIN,
  REBUILD_SHARE,
  startBuild,
  stateOf,
  type TableState,
} from './postgres-memory-search-state.js';
import { changeNumberCovers } from './postgres-row-changes.js';
import { searchTextColumns } from './postgres-search-index.js';
import { postgresSavedIndexes } from './postgres-search-snapshot.js';

/**
 * PostgreSQL's store for the search engine's in-memory search (search-answers.ts): the index of
 * search-memory-index.ts over each content table's search table (postgres-search-index.ts), rows
 * numbered by its `quire:n`. Several servers may write to the database, so the index is brought in
 * step with every committed write before it answers:
 *
 * - It is built from one REPEATABLE READ snapshot, whose `pg_current_snapshot()` it keeps, with
 *   the table's change number (postgres-row-changes.ts), which every row write raises.
 * - A count first reads the change number (one small statement; a list's count takes the one its
 *   page read), a page reads it in its own statement. Unchanged: the index was in step. Changed:
 *   one statement reads the search-table rows whose writing transaction (`quire:x`) the kept
 *   snapshot did not see, and the row numbers deleted by such transactions (SEARCH_REMOVED), with
 *   its own snapshot and change number, which the index then keeps, and the answer is put
 *   together again (up to MAX_ROUNDS times, then SQL answers). A transaction is either visible in
 *   a snapshot or not, whatever order transactions commit in, so nothing is missed or taken twice.
 * - Pages in id order with no other condition are found in memory (postgres-id-sequence.ts) and
 *   only their rows read, by row number; other pages and counts with other conditions are put
 *   together by SQL from the matches (postgres-memory-pages.ts).
 * - The index is built in the background from the first read of the table; a search waits for
 *   the build (at most BUILD_WAIT_MS). For what it cannot answer (a build that failed, keywords
 *   with control characters) it returns null and the search table's trigram index answers in SQL.
 * - A search table made again (its columns changed: a content-type change, which moves the
 *   registry's version and so the change number) has new row numbers: its oid, read with every
 *   catch-up, tells, and the index is built again.
 * - Removed row numbers are kept for REMOVED_KEPT; an index not brought in step for
 *   REBUILD_AGE_MS is built again in the background, and after MAX_STEP_AGE_MS (still less than
 *   REMOVED_KEPT) no longer trusted to find them all.
 * - A server saves its indexes at a clean stop, and the next one on this machine reads them back
 *   instead of building them, then brings them in step as above (postgres-search-snapshot.ts).
 */

/** Longest a search waits for a build before SQL answers it (a guard against a build that hangs). */
const BUILD_WAIT_MS = 60_000;

/**
 * Rounds an answer is put together again when a write commits meanwhile, before SQL answers. A
 * round costs a catch-up and a page, far less than SQL's answer through the trigram index, so
 * steady writes beside searches should not send searches to SQL.
 */
const MAX_ROUNDS = 8;

/**
 * The table's index brought in step with the database as of change number `seen` (read now when
 * not given) or later, or null when it cannot answer now (not built yet, or the search is not one
 * it answers). `trusting`: the index as it is, unchecked (unless it had to be built), for an answer
 * whose own statement reads the change number (it is checked then).
 */
async function current(
  request: MemorySearchRequest,
  seen: string | undefined,
  trusting: boolean,
): Promise<TableState | null> {
  let trusted = trusting;
  const { db, table, columns } = request;
  if (unindexable.has(columns)) return null;
  const database = stateOf(db);
  const key = indexKey(table, columns);
  let state = database.tables.get(key);
  const age = state ? Date.now() - state.checkedAt : 0;
  if (!state || !sameColumns(state.columns, columns) || age > MAX_STEP_AGE_MS) {
    if (state) database.tables.delete(key);
    // Searches wait for the build: on a large table one through the trigram table takes seconds,
    // and a flood of them during the build would keep it from ending for as long as they came.
    await within(startBuild(db, table, columns), BUILD_WAIT_MS, undefined);
    state = database.tables.get(key);
    if (!state || !sameColumns(state.columns, columns)) return null;
    trusted = false;
  } else if (age > REBUILD_AGE_MS) {
    void startBuild(db, table, columns);
  }
  if (trusted) return state;
  const number = seen ?? (await numberNow(request));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (changeNumberCovers(state.number, number)) {
      state.checkedAt = Date.now();
      // Rows written since the build cost every search more (the index's overlay): build it again
      // in the background once they are many; this one answers meanwhile.
      if (worn(state.index, REBUILD_SHARE, REBUILD_MIN)) void startBuild(db, table, columns);
      return state;
    }
    state.catchingUp ??= catchUp(db, table, state).finally(() => {
      state.catchingUp = null;
    });
    if (!(await state.catchingUp.catch(() => false))) {
      if (database.tables.get(key) === state) database.tables.delete(key);
      return null;
    }
    prune(db);
  }
  return null;
}

/**
 * The matches that meet the request's other conditions too, when the select columns' values kept
 * beside the index decide them all (postgres-value-columns.ts; kept as the matches are: a list's
 * page and count filter once), else null.
 */
function meeting(request: MemorySearchRequest, state: TableState, hits: PostingBitmap): Promise<PostingBitmap | null> {
  const { conditions } = request;
  if (request.equals.length === 0) return Promise.resolve(hits);
  if (!conditions || conditions.length !== request.equals.length || !state.values.decides(conditions)) {
    return Promise.resolve(null);
  }
  // Keyed apart from any keywords': a keyword with a control character is never the index's.
  const key = [...request.keywords, `\u0000${JSON.stringify(conditions)}`];
  return rememberedMatches(
    state.answers,
    key,
    () => state.number,
    async () => state.values.filter(hits, conditions) ?? new PostingBitmap(),
  );
}

/** PostgreSQL's indexes, per database, as the search engine's orchestration asks for them. */
const store: MemoryIndexStore<TableState, MemorySearchRequest, string> = {
  rounds: MAX_ROUNDS,
  readsMarks: true,
  query: (request) => request,
  current: (request, start) => current(request, start.seen, start.trusted),
  held: (_request, state) => state.number,
  // The number moves when the index takes in writes (SQL checked the unsure rows at a later state).
  version: (state) => state.number,
  unsureRowsMatching: (request, state, unsure) => unsureRowsMatching(request, state.columns, unsure),
  meeting,
  count: (request, state, hits, met) => countWithConditions(request, hits, met, state.index),
  page: (request, state, hits, met, page) => pageOfMatches(request, hits, met, state, page),
  // An answer whose statement read no number is in step only when the index was checked first.
  stillInStep: (_request, _state, held, number, trusted) => (number === null ? !trusted : number === held),
  answered: (request) => {
    stateOf(request.db).answered++;
  },
  warm,
  tally,
  saved: postgresSavedIndexes,
};

/**
 * Starts the build of a table's index on its first read (the search table's columns: the default
 * locale's; another locale's is built at its first search).
 */
function warm(db: Kysely<unknown>, _runner: StatementRunner | undefined, table: string): void {
  const database = stateOf(db);
  database.warm(table, async () => {
    const columns = await searchTextColumns(db, table);
    if (!columns || columns.length === 0 || database.busy(indexKey(table, columns))) return;
    await startBuild(db, table, columns);
  });
}

/** The default locale's index of `table` held by the database's state, if any. */
function defaultIndexOf(db: Kysely<unknown>, table: string): TableState | undefined {
  return stateOf(db)
    .of(table)
    .find(([, state]) => defaultLocaleColumns(state.columns))?.[1];
}

/**
 * A list's counts without a keyword, from the select columns' tallies (postgres-value-columns.ts)
 * of an index already held and recently in step: brought in step with `seen` (reading only the
 * rows written since, as a search's count does), then counted without visiting a row, where SQL
 * would count the table again after each write.
 */
async function tally(
  db: Kysely<unknown>,
  table: string,
  conditions: readonly MemoryCondition[],
  seen: string,
): Promise<{ total: number; filtered: number; number: string } | null> {
  const held = defaultIndexOf(db, table);
  // Never waits for a build: SQL counts until there is an index to ask.
  if (!held || Date.now() - held.checkedAt > MAX_STEP_AGE_MS) return null;
  const state = await current({ db, table, columns: held.columns, keywords: [], equals: [] }, seen, false);
  if (!state) return null;
  const known = state.holdsEveryRow;
  // Checked in the background (the check reads both tables' ids), SQL counting until the first
  // check says yes, then again now and then: a row SQL wrote behind Quire's back is counted
  // by SQL from the first check after it.
  if (!known || Date.now() - known.at > ROWS_RECHECK_MS) void holdsEveryRow(db, table, state).catch(() => {});
  if (!known?.holds) return null;
  const counts = state.values.tally(conditions, () => state.index.held);
  return counts ? { ...counts, number: state.number } : null;
}

/** How often the tallies' index is checked again for rows it does not hold. */
const ROWS_RECHECK_MS = 60_000;

/**
 * Checks (lists arriving together sharing it) whether the index holds every row of `table`: the
 * index holds the rows that have a search row, so one statement looks for a row without one (an
 * anti-join of the two tables' ids), whatever writes commit meanwhile.
 */
function holdsEveryRow(db: Kysely<unknown>, table: string, state: TableState): Promise<void> {
  let check = rowChecks.get(state);
  if (!check) {
    check = sql<{ holds: boolean }>`select not exists (select from ${sql.id(table)} t
      where not exists (select from ${sql.id(searchTextName(table))} s where s.id = t.id)) as holds`
      .execute(db)
      .then(({ rows: [read] }) => {
        state.holdsEveryRow = { holds: read.holds === true, at: Date.now() };
      })
      .finally(() => rowChecks.delete(state));
    rowChecks.set(state, check);
  }
  return check;
}

const rowChecks = new WeakMap<TableState, Promise<void>>();

/** PostgreSQL's in-memory search (see the module comment). */
export const postgresMemorySearch: MemorySearch = memorySearchOn(store);

/**
 * Builds `table`'s index now (the search table's columns) and waits for it; then how many answers
 * the database's indexes gave so far. For tests, to compare answers known to come from the index.
 */
export async function builtForTests(db: Kysely<unknown>, table: string): Promise<void> {
  const columns = await searchTextColumns(db, table);
  if (columns) await startBuild(db, table, columns);
}

/**
 * Runs the check that `table`'s index holds every row of the table and waits for it (for tests: a
 * list's counts come from the tallies only once a check has said so, see `tally`).
 */
export async function rowsCheckedForTests(db: Kysely<unknown>, table: string): Promise<void> {
  const state = defaultIndexOf(db, table);
  if (state) await holdsEveryRow(db, table, state);
}

/** Waits for the builds that reads of `db` started (for tests that count statements). */
export async function buildsSettledForTests(db: Kysely<unknown>): Promise<void> {
  const database = stateOf(db);
  await Promise.all([...database.warmed.values(), ...database.builds.values()]);
}

/** How many answers the in-memory indexes of `db` gave (for tests). */
export function memoryAnswersForTests(db: Kysely<unknown>): number {
  return stateOf(db).answered;
}

/** How many lists' counts the select columns' tallies kept beside `table`'s index gave (for tests). */
export function valueTalliesForTests(db: Kysely<unknown>, table: string): number {
  return defaultIndexOf(db, table)?.values.tallied ?? 0;
}

/** How many filters the select columns' values kept beside `table`'s index decided (for tests). */
export function valueFiltersForTests(db: Kysely<unknown>, table: string): number {
  return defaultIndexOf(db, table)?.values.decided ?? 0;
}
