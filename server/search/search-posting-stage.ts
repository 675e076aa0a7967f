import type { PostingBitmap } from './search-posting-bitmap.js';

/** Postings held before they are applied (pairs of bitmap number and row). */
const CAPACITY = 1 << 20;

/**
 * Postings of an index build, applied bitmap by bitmap. A row's text adds it to about 120 bitmaps
 * (characters, trigrams, words, word pairs), a different few thousand for every row: added as they
 * come, each add reaches a bitmap, its container and its array in memory no cache holds any more,
 * and the build spends its time waiting on memory. Staged here instead
 * (written one after another), and applied every CAPACITY postings sorted by bitmap (a counting
 * sort, which keeps each bitmap's rows in the order they came), the adds to one bitmap follow each
 * other and find it in the cache.
 */
export class PostingStage {
  /** The bitmaps staged into, by their number (`PostingBitmap.stageId`). */
  private bitmaps: PostingBitmap[] = [];
  // Grown as postings come (a small table's build needs little), up to CAPACITY.
  private ids = new Uint32Array(1024);
  private rows = new Uint32Array(1024);
  private length = 0;
  /** Where each bitmap's postings start once sorted, and the sorted rows (kept between flushes). */
  private starts = new Uint32Array(0);
  private sorted = new Uint32Array(0);

  /** `capacity`: postings held before they are applied (smaller in tests). */
  constructor(private readonly capacity = CAPACITY) {}

  /** Stages `row` for `bitmap` (rows of one bitmap must come in increasing order to stay fast). */
  add(bitmap: PostingBitmap, row: number): void {
    let id = bitmap.stageId;
    if (id < 0) {
      id = this.bitmaps.length;
      bitmap.stageId = id;
      this.bitmaps.push(bitmap);
    }
    if (this.length === this.ids.length) this.grow();
    this.ids[this.length] = id;
    this.rows[this.length] = row;
    this.length++;
  }

  /** Makes room: twice the arrays, or (at CAPACITY) the postings applied. */
  private grow(): void {
    if (this.length >= this.capacity) {
      this.flush();
      return;
    }
    const ids = new Uint32Array(this.ids.length * 2);
    const rows = new Uint32Array(this.rows.length * 2);
    ids.set(this.ids);
    rows.set(this.rows);
    this.ids = ids;
    this.rows = rows;
  }

  /** Applies every staged posting to its bitmap. */
  flush(): void {
    const length = this.length;
    if (length === 0) return;
    const count = this.bitmaps.length;
    if (this.starts.length < count + 1) this.starts = new Uint32Array(Math.max(count + 1, this.starts.length * 2));
    if (this.sorted.length < length) this.sorted = new Uint32Array(this.ids.length);
    const { ids, rows, starts, sorted } = this;
    starts.fill(0, 0, count + 1);
    for (let i = 0; i < length; i++) starts[ids[i] + 1]++;
    for (let id = 1; id <= count; id++) starts[id] += starts[id - 1];
    // Each bitmap's next free place, moving from its start to the next one's (restored below).
    for (let i = 0; i < length; i++) sorted[starts[ids[i]]++] = rows[i];
    for (let id = count; id > 0; id--) starts[id] = starts[id - 1];
    starts[0] = 0;
    for (let id = 0; id < count; id++) {
      const bitmap = this.bitmaps[id];
      for (let at = starts[id]; at < starts[id + 1]; at++) bitmap.add(sorted[at]);
    }
    this.length = 0;
  }

  /** Applies what is staged and lets go of the bitmaps (they can be staged again elsewhere). */
  close(): void {
    this.flush();
    for (const bitmap of this.bitmaps) bitmap.stageId = -1;
    this.bitmaps = [];
    this.ids = new Uint32Array(0);
    this.rows = new Uint32Array(0);
    this.starts = new Uint32Array(0);
    this.sorted = new Uint32Array(0);
  }
}
