import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type IndexedTable, type MemoryIndexStore, memorySearchOn } from './search-answers.js';
import type { MemorySearchRequest, SavedSearchIndexes } from './search-engine.js';
import { IndexTables } from './search-index-tables.js';
import { MemorySearchIndex } from './search-memory-index.js';

const nothingSaved: SavedSearchIndexes = {
  keepSavedIndexes: async () => [],
  saveIndexes: async () => [],
  saveIndexNow: async () => false,
};

/** A table of `titles` (row numbers from 1) indexed in memory. */
function tableOf(titles: string[]): IndexedTable {
  const index = new MemorySearchIndex(1, false);
  titles.forEach((title, i) => {
    index.set(i + 1, [title]);
  });
  index.seal();
  return { columns: ['title'], index, answers: new Map() };
}

/** A store over one table, whose answers are in step only after `writesDuring` rounds saw a write. */
function storeOf(state: IndexedTable, writesDuring = 0) {
  const seen = { current: 0, counts: 0, answered: 0 };
  const store: MemoryIndexStore<IndexedTable, MemorySearchRequest, number> = {
    rounds: 3,
    readsMarks: false,
    query: (request) => request,
    current: async () => {
      seen.current++;
      return state;
    },
    held: () => seen.current,
    version: () => 0,
    unsureRowsMatching: async () => [],
    count: async (_query, _state, hits) => {
      seen.counts++;
      return { value: hits.size, number: null };
    },
    page: async (_query, _state, hits) => ({ value: hits.toArray().map((n) => ({ n })), number: null }),
    stillInStep: () => seen.current > writesDuring,
    answered: () => {
      seen.answered++;
    },
    warm: () => {},
    saved: nothingSaved,
  };
  return { search: memorySearchOn(store), seen };
}

const request = (keywords: string[], equals: unknown[] = []): MemorySearchRequest => ({
  db: {} as Kysely<unknown>,
  table: 'news',
  columns: ['title'],
  keywords,
  equals: equals as MemorySearchRequest['equals'],
});

describe('memorySearchOn', () => {
  const titles = ['Harbour lights', 'Night harbour', 'Morning market'];

  it('counts and lists the matches of the index, the count without a read when nothing else filters', async () => {
    const { search, seen } = storeOf(tableOf(titles));
    expect(await search.count(request(['harbour']))).toBe(2);
    expect(seen.counts).toBe(0);
    expect(await search.list(request(['harbour']), { order: 'id', desc: false, limit: 10, offset: 0 })).toEqual([
      { n: 1 },
      { n: 2 },
    ]);
    expect(seen.answered).toBe(2);
  });

  it('puts an answer together again while a write committed under it, and leaves it to SQL after the rounds', async () => {
    const filtered = request(['harbour'], [{}]);
    const again = storeOf(tableOf(titles), 2);
    expect(await again.search.count(filtered)).toBe(2);
    expect(again.seen.counts).toBe(3);
    const never = storeOf(tableOf(titles), 10);
    expect(await never.search.count(filtered)).toBeNull();
    expect(never.seen.counts).toBe(3);
    expect(never.seen.answered).toBe(0);
  });

  it('leaves keywords the index cannot answer to SQL without asking the store', async () => {
    const { search, seen } = storeOf(tableOf(titles));
    expect(await search.count(request(['har\u0000bour']))).toBeNull();
    expect(seen.current).toBe(0);
  });
});

describe('IndexTables', () => {
  it('shares one build per table until it ends, then starts the next', async () => {
    const tables = new IndexTables<string, number>();
    let starts = 0;
    let finish: (value: number) => void = () => {};
    const start = () => {
      starts++;
      return new Promise<number>((resolve) => {
        finish = resolve;
      });
    };
    const first = tables.buildOf('news', start);
    expect(tables.buildOf('news', start)).toBe(first);
    expect(tables.busy('news')).toBe(true);
    finish(1);
    expect(await first).toBe(1);
    expect(tables.busy('news')).toBe(false);
    void tables.buildOf('news', start);
    expect(starts).toBe(2);
  });

  it('warms a table once, after the read that asked', async () => {
    const tables = new IndexTables<string>();
    let runs = 0;
    tables.warm('news', async () => {
      runs++;
    });
    tables.warm('news', async () => {
      runs++;
    });
    expect(runs).toBe(0);
    await tables.warmed.get('news');
    expect(runs).toBe(1);
  });
});
