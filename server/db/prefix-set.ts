/**
 * A set of strings that also lists the members starting with a prefix, for a bulk import's slug
 * lookups held in memory (`postgres-bulk-import.ts`, `sqlite-bulk-import.ts` into an empty table),
 * where SQLite answers them with a range read of its index. Members are kept in a sorted array
 * (binary search finds the range) plus an unsorted tail of recent additions. An addition only
 * appends to the tail; a prefix lookup merges the tail in first once it outgrows the square root of
 * the array, so a lookup costs O(log n + √n + matches) amortized, and an import that never asks
 * (every slug free) never sorts at all, where merging on each addition would cost O(n √n), about
 * 10^9 steps for a million rows.
 */
export class PrefixSet {
  private readonly members = new Set<string>();
  private sorted: string[];
  private tail: string[] = [];

  constructor(values: Iterable<string> = []) {
    for (const value of values) this.members.add(value);
    this.sorted = [...this.members].sort(byCodeUnits);
  }

  has(value: string): boolean {
    return this.members.has(value);
  }

  add(value: string): void {
    if (this.members.has(value)) return;
    this.members.add(value);
    this.tail.push(value);
  }

  /** The members that start with `prefix`. */
  startingWith(prefix: string): Set<string> {
    if (this.tail.length > Math.max(64, Math.sqrt(this.sorted.length))) this.mergeTail();
    const found = new Set<string>();
    // In code-unit order the members starting with a prefix follow each other, from the prefix on.
    for (let i = lowerBound(this.sorted, prefix); i < this.sorted.length && this.sorted[i].startsWith(prefix); i++) {
      found.add(this.sorted[i]);
    }
    for (const value of this.tail) if (value.startsWith(prefix)) found.add(value);
    return found;
  }

  private mergeTail(): void {
    const tail = this.tail.sort(byCodeUnits);
    const merged: string[] = new Array(this.sorted.length + tail.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.sorted.length && j < tail.length) {
      merged[k++] = byCodeUnits(this.sorted[i], tail[j]) <= 0 ? this.sorted[i++] : tail[j++];
    }
    while (i < this.sorted.length) merged[k++] = this.sorted[i++];
    while (j < tail.length) merged[k++] = tail[j++];
    this.sorted = merged;
    this.tail = [];
  }
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first index whose member is not below `value`. */
function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
