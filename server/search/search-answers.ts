import type { Kysely } from 'kysely';
import type { StatementRunner } from '../db/statement-runner.js';
import type {
  MemoryCondition,
  MemorySearch,
  MemorySearchPage,
  MemorySearchRequest,
  SavedSearchIndexes,
} from './search-engine.js';
import type { MemorySearchIndex } from './search-memory-index.js';
import { answerable } from './search-memory-keywords.js';
import { rememberedMatches } from './search-memory-shared.js';
import type { PostingBitmap } from './search-posting-bitmap.js';

/**
 * The one orchestration of in-memory searches (see search-engine.ts): a count or a page is put
 * together on the table's index brought in step by the engine's store, from the matches the index
 * finds (those it is unsure of confirmed by SQL), and put together again while the store says a
 * write committed between the index's state and the answer's reads; null leaves it to SQL.
 */

/** A content table's index as an engine's store keeps it. */
export interface IndexedTable {
  readonly columns: readonly string[];
  readonly index: MemorySearchIndex;
  /** Recent answers by keywords, kept while the index does not change (see `rememberedMatches`). */
  readonly answers: Map<string, PostingBitmap>;
}

/** An answer, with the table's change number its own statement read (null where it read none). */
export interface Numbered<T> {
  value: T;
  number: string | null;
}

/**
 * How an answer starts: `seen`, a change number read since the request began; `trusted`, whether
 * the index may answer as it is, unchecked, because the answer's own statement reads the change
 * number (and is checked then).
 */
export interface AnswerStart {
  seen?: string;
  trusted: boolean;
}

/**
 * What an engine provides the orchestration: its index of a table brought in step with the
 * database, and the SQL that confirms unsure rows and puts counts and pages together from matches.
 * `Q` is the request as the engine answers it; `H` what tells whether the index stayed in step.
 */
export interface MemoryIndexStore<S extends IndexedTable, Q extends MemorySearchRequest, H> {
  /** Times an answer is put together again when a write commits meanwhile, before SQL answers. */
  readonly rounds: number;
  /** Whether `page` reads the page's rows with `page.marked`. */
  readonly readsMarks: boolean;
  /** The request as this engine answers it, or null when it cannot be answered in memory. */
  query(request: MemorySearchRequest): Q | null;
  /** The table's index brought in step with the database, or null when it cannot answer now. */
  current(query: Q, start: AnswerStart): Promise<S | null>;
  /** What `stillInStep` compares against, taken before the matches. */
  held(query: Q, state: S): H;
  /** Moves whenever the index takes in rows (matches found before are not kept). */
  version(state: S): unknown;
  /** The rows of `unsure` whose search columns contain every keyword, checked by SQL. */
  unsureRowsMatching(query: Q, state: S, unsure: readonly number[]): Promise<Iterable<number>>;
  /** The matches meeting the request's other conditions, where the store decides them in memory, else null. */
  meeting?(query: Q, state: S, hits: PostingBitmap): Promise<PostingBitmap | null>;
  /** How many matches meet the request's other conditions. */
  count(query: Q, state: S, hits: PostingBitmap, met: PostingBitmap | null): Promise<Numbered<number>>;
  /** The page of matches meeting the request's other conditions, in the page's order. */
  page(
    query: Q,
    state: S,
    hits: PostingBitmap,
    met: PostingBitmap | null,
    page: MemorySearchPage,
  ): Promise<Numbered<Record<string, unknown>[]>>;
  /** Whether an answer read (with `number`) the state the index was in step with when `held` was taken. */
  stillInStep(query: Q, state: S, held: H, number: string | null, trusted: boolean): Promise<boolean> | boolean;
  /** Hears of each answer the index gave (tests tell them from SQL's). */
  answered?(query: Q): void;
  /** Starts building the index of `table` if it has none yet (a table is being read). */
  warm(db: Kysely<unknown>, runner: StatementRunner | undefined, table: string): void;
  tally?: MemorySearch['tally'];
  readonly saved: SavedSearchIndexes;
}

/** The in-memory search of an engine, answered on its store's indexes (see the module comment). */
export function memorySearchOn<S extends IndexedTable, Q extends MemorySearchRequest, H>(
  store: MemoryIndexStore<S, Q, H>,
): MemorySearch {
  /** The rows matching the search: those the index is sure of, plus the unsure ones SQL confirms. */
  function matching(query: Q, state: S): Promise<PostingBitmap> {
    return rememberedMatches(
      state.answers,
      query.keywords,
      () => store.version(state),
      async () => {
        const { hits, unsure } = state.index.search(query.keywords);
        if (unsure.length > 0) for (const row of await store.unsureRowsMatching(query, state, unsure)) hits.add(row);
        return hits;
      },
    );
  }

  /**
   * An answer put together on the index brought in step; `known` gives the answer the matches
   * alone settle (no read of the table, so nothing to check), else undefined.
   */
  async function onIndex<T>(
    query: Q,
    answer: (state: S, hits: PostingBitmap, met: PostingBitmap | null) => Promise<Numbered<T>>,
    start: AnswerStart,
    known: (hits: PostingBitmap) => T | undefined = () => undefined,
  ): Promise<T | null> {
    if (!query.keywords.every(answerable)) return null;
    let { seen, trusted } = start;
    for (let round = 0; round < store.rounds; round++) {
      const state = await store.current(query, { seen, trusted });
      if (!state) return null;
      const held = store.held(query, state);
      const hits = await matching(query, state);
      const settled = known(hits);
      if (settled !== undefined) {
        store.answered?.(query);
        return settled;
      }
      const met = store.meeting ? await store.meeting(query, state, hits) : null;
      const { value, number } = await answer(state, hits, met);
      if (await store.stillInStep(query, state, held, number, trusted)) {
        store.answered?.(query);
        return value;
      }
      // A write the index had not taken in: take it in, and put the answer together again.
      seen = number ?? undefined;
      trusted = false;
    }
    return null;
  }

  function count(request: MemorySearchRequest, seen?: string): Promise<number | null> {
    const query = store.query(request);
    if (!query) return Promise.resolve(null);
    return onIndex(
      query,
      (state, hits, met) => store.count(query, state, hits, met),
      { seen, trusted: false },
      (hits) => (query.equals.length === 0 || hits.size === 0 ? hits.size : undefined),
    );
  }

  /** A page: trusted as it is where the page's own statement reads the change number. */
  function list(request: MemorySearchRequest, page: MemorySearchPage): Promise<Record<string, unknown>[] | null> {
    const query = store.query(request);
    if (!query) return Promise.resolve(null);
    return onIndex(query, (state, hits, met) => store.page(query, state, hits, met, page), { trusted: true });
  }

  const tally = store.tally;
  return {
    count,
    list,
    readsMarks: store.readsMarks,
    warm: (db, runner, table) => store.warm(db, runner, table),
    ...(tally
      ? { tally: (db, table, conditions: readonly MemoryCondition[], seen) => tally(db, table, conditions, seen) }
      : {}),
    saved: store.saved,
  };
}
