import { type MemoryIndexStore, memorySearchOn } from '../../search/search-answers.js';
import type { MemorySearch, MemorySearchQuery, MemorySearchRequest } from '../../search/search-engine.js';
import { unindexable } from '../../search/search-index-tables.js';
import type { StatementRunner } from '../statement-runner.js';
import { countWithConditions, pageOfMatches, unsureRowsMatching } from './sqlite-memory-pages.js';
import { buildOf, endOf, rebuildIfWorn, sqliteSavedIndexes, warm } from './sqlite-memory-search-build.js';
import { inStep, type TableState, totalChanges, viaRunner } from './sqlite-memory-search-state.js';
import { readViaKysely } from './sqlite-search-triggers.js';

/**
 * SQLite's store for the search engine's in-memory search (search-answers.ts): an index per table
 * and per reading connection (its statement runner), brought in step with the table before it
 * answers:
 *
 * - It is built in the background, in steps that yield the event loop, so gets and lists go on
 *   being answered meanwhile. A search waits for the build in progress (or starts it) and is then
 *   answered by the index: SQL's scan answers synchronously and would hold every build step behind
 *   it. A search returns null (SQL answers) only for what the index cannot answer, when a build
 *   failed, or when writes kept committing under it (MAX_WRITE_WAITS).
 * - Every search first compares the connection's `total_changes()`: when this connection wrote
 *   anything since, the rows in the table's pending table (which the search triggers fill on every
 *   insert, update of a search column and delete) are read again, with the rows a flush moved out
 *   of it meanwhile (`noteFlushed`). A commit by another connection (`data_version`) or any schema
 *   change (`schema_version`) starts a new build instead.
 * - Searches read on the reader's connection only while no write is under way (the repository's
 *   reader never reads mid-transaction), and the build reads through Kysely, which waits for any
 *   transaction to end, so nothing uncommitted reaches the index.
 * - The first list or get of a table (`warm`) starts its build, later and in the background.
 * - Rows written after a build are held apart (search-memory-index.ts), and every search pays for
 *   them: past REBUILD_SHARE of the rows, the index is built again in the background while the one
 *   in use answers, and put in its place when ready (`rebuildIfWorn`).
 * - A server saves each built index at a clean stop and reads it back when it next opens the
 *   database, instead of building it; the file is trusted only while it still describes the table
 *   (sqlite-search-snapshot.ts). The build and the save are in sqlite-memory-search-build.ts, the
 *   states and how they are brought in step in sqlite-memory-search-state.ts.
 * - Tables whose triggers are not exactly today's (sqlite-search-triggers.ts) are searched by the
 *   plain scan: nothing would tell the index about their changes.
 */

/** Builds a search waits for, at most (after them, or after a failed build, SQL answers). */
const MAX_BUILD_ROUNDS = 3;
/**
 * Writes a search waits for, at most, before SQL answers it: a write's transaction that is open
 * when the search comes (or commits while its page is put together). SQL waits for the write too
 * (Kysely queues it) and then folds every row of the table, which costs far more than waiting.
 */
const MAX_WRITE_WAITS = 3;

/** Whether a write transaction is open on the runner's connection (when the runner can tell). */
function inTransaction(runner: StatementRunner): boolean {
  return (runner as { transaction?: { open?: boolean } }).transaction?.open === true;
}

/**
 * The table's state, brought in step with the database, or null when it cannot answer now (still
 * building, or a write is under way, or the table is not indexable here).
 */
async function current(query: MemorySearchQuery): Promise<TableState | null> {
  const { runner, columns } = query;
  for (let wait = 0; inTransaction(runner); wait++) {
    if (wait === MAX_WRITE_WAITS) return null;
    // Kysely runs this once the write's transaction has let go of the connection.
    await readViaKysely(query.db)('select 1', []);
  }
  for (let round = 0; round < MAX_BUILD_ROUNDS; round++) {
    if (unindexable.has(columns)) return null;
    const state = await inStep(query);
    if (state) {
      rebuildIfWorn(query, state);
      return state;
    }
    // No index in step: wait for its build (concurrent searches share one), then look again.
    if ((await endOf(buildOf(query))) === 'failed') return null;
  }
  return null;
}

/**
 * Whether this connection changed nothing since the index was brought in step (an answer put
 * together from several statements is then one state's). Rows only: a schema change meanwhile that
 * changed no row (a trigger dropped for a bulk load, a column renamed) leaves the rows this answer
 * read as they were, and the next search's `inStep` sees it.
 */
async function unchanged(
  runner: StatementRunner,
  state: TableState,
  seen: { changes: number; version: number },
): Promise<boolean> {
  return state.version === seen.version && (await totalChanges(viaRunner(runner))) === seen.changes;
}

/** The request as a search on its reading connection, or null when it has none (SQL answers). */
function onConnection(request: MemorySearchRequest): MemorySearchQuery | null {
  const { runner } = request;
  return runner ? { ...request, runner } : null;
}

/** SQLite's indexes, per reading connection, as the search engine's orchestration asks for them. */
const store: MemoryIndexStore<TableState, MemorySearchQuery, { changes: number; version: number }> = {
  rounds: MAX_WRITE_WAITS,
  readsMarks: false,
  query: onConnection,
  current: (query) => current(query),
  held: (_query, state) => ({ changes: state.totalChanges, version: state.version }),
  version: (state) => state.version,
  unsureRowsMatching: (query, _state, unsure) => unsureRowsMatching(query, unsure),
  count: async (query, state, hits) => ({ value: await countWithConditions(query, state.index, hits), number: null }),
  page: async (query, state, hits, _met, page) => ({
    value: await pageOfMatches(query, hits, state.index, state.idOrder, page),
    number: null,
  }),
  stillInStep: (query, state, held) => unchanged(query.runner, state, held),
  warm,
  saved: sqliteSavedIndexes,
};

/** SQLite's in-memory search (see the module comment). */
export const sqliteMemorySearch: MemorySearch = memorySearchOn(store);
