import { foldForSearch } from '../search/search-folding.js';
import type { MemorySearchIndex } from '../search/search-memory-index.js';

/** Every row's stored columns, by rowid (a model of a table's search columns). */
export type ScanRows = Map<number, (string | null | number)[]>;

/** The rows the plain scan finds: every keyword, folded, in some column's folded text. */
export function scan(rows: ScanRows, keywords: readonly string[]): number[] {
  const found: number[] = [];
  for (const [rowid, columns] of rows) {
    const all = keywords.every((keyword) =>
      columns.some((value) => value !== null && foldForSearch(String(value)).includes(foldForSearch(keyword))),
    );
    if (all) found.push(rowid);
  }
  return found.sort((a, b) => a - b);
}

/** What an in-memory index answers, with the rows it leaves to SQL checked as SQL would. */
export function answer(index: MemorySearchIndex, rows: ScanRows, keywords: readonly string[]): number[] {
  const { hits, unsure } = index.search(keywords);
  for (const rowid of unsure) if (scan(new Map([[rowid, rows.get(rowid) ?? []]]), keywords).length > 0) hits.add(rowid);
  return hits.toArray();
}

/** A row written: its rowid and its search columns, or null when it is deleted. */
export type ScanWrite = readonly [number, (string | null | number)[] | null];

/** Applies `writes` in order to the model `rows` and to `index` alike. */
export function applyWrites(index: MemorySearchIndex, rows: ScanRows, writes: Iterable<ScanWrite>): void {
  for (const [rowid, values] of writes) {
    if (values === null) {
      rows.delete(rowid);
      index.delete(rowid);
    } else {
      rows.set(rowid, values);
      index.set(rowid, values);
    }
  }
}

/** A title of 2-5 of `words` picked by a fixed generator from `seed`, ending with the seed: the same rows every run. */
export function seededTitle(words: readonly string[], seed: number): string {
  const picked: string[] = [];
  let s = seed;
  for (let i = 0; i < 2 + (seed % 4); i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    picked.push(words[s % words.length]);
  }
  return `${picked.join(' ')} ${seed}`;
}
