/**
 * A compressed set of row numbers (unsigned 32-bit), laid out like a roaring bitmap: numbers are
 * grouped by their high 16 bits, and each group keeps its low 16 bits either as a sorted
 * `Uint16Array` (up to 4,096 members: 2 bytes each) or as a 65,536-bit bitmap (8 KiB, denser than
 * that). The search index keeps one per n-gram, so memory follows the number of postings, and
 * dense ones cost one bit per row.
 *
 * Written here rather than taken from npm: the well-kept roaring package for Node (`roaring`) is a
 * native addon built per Node ABI (the desktop app runs Electron's), and the index needs only these
 * few operations.
 */

import {
  ARRAY_MAX,
  andContainers,
  andNotContainers,
  BITMAP_WORDS,
  type Container,
  copyOf,
  packed,
  search,
  toBitmap,
  union,
} from './search-bitmap-containers.js';
import { readGroups, skipGroups, writeGroups } from './search-bitmap-snapshot.js';
import type { SnapshotReader, SnapshotWriter } from './search-snapshot-codec.js';

/** A compressed set of unsigned 32-bit integers (see the module comment). */
export class PostingBitmap {
  /** Groups by high 16 bits (a sparse array: rows are numbered densely, so there are few). */
  private groups: (Container | undefined)[] = [];
  private count = 0;
  /**
   * Where the groups of a bitmap read from a snapshot are, until first used (`read`); then null.
   * Loading a saved index makes no group objects: a large index has very many, and most bitmaps
   * are never used before the next save.
   */
  private unread: SnapshotReader | null = null;

  /** The groups, read from the snapshot first if they have not been yet. */
  private get containers(): (Container | undefined)[] {
    if (this.unread !== null) this.readGroups();
    return this.groups;
  }
  /** The bitmap's number in the PostingStage filling it during an index build (-1: none). */
  stageId = -1;
  /** The member added last: adding it again (the same row's repeated n-grams) returns at once. */
  private last = -1;

  /** Number of members. */
  get size(): number {
    return this.count;
  }

  /** Adds a member (fastest in increasing order, as the index is built). */
  add(value: number): void {
    if (value === this.last) return;
    this.last = value;
    const high = value >>> 16;
    const low = value & 0xffff;
    let container = this.containers[high];
    if (container === undefined) {
      container = { size: 0, array: new Uint16Array(4), bits: null };
      this.containers[high] = container;
    }
    if (container.bits) {
      const word = low >>> 5;
      const mask = 1 << (low & 31);
      if ((container.bits[word] & mask) !== 0) return;
      container.bits[word] |= mask;
    } else {
      let array = container.array as Uint16Array;
      const size = container.size;
      let at = size;
      if (size > 0 && array[size - 1] >= low) {
        const found = search(array, size, low);
        if (found >= 0) return;
        at = -found - 1;
      }
      if (size === array.length) {
        const grown = new Uint16Array(Math.min(ARRAY_MAX + 1, size * 2));
        grown.set(array);
        array = grown;
        container.array = grown;
      }
      // Rows mostly come in increasing order (an index build): then nothing moves.
      if (at < size) array.copyWithin(at + 1, at, size);
      array[at] = low;
      if (size + 1 > ARRAY_MAX) {
        container.size = size + 1;
        toBitmap(container);
        this.count++;
        return;
      }
    }
    container.size++;
    this.count++;
  }

  /** Removes a member, if present. */
  remove(value: number): void {
    if (value === this.last) this.last = -1;
    const high = value >>> 16;
    const low = value & 0xffff;
    const container = this.containers[high];
    if (container === undefined) return;
    if (container.bits) {
      const word = low >>> 5;
      const mask = 1 << (low & 31);
      if ((container.bits[word] & mask) === 0) return;
      container.bits[word] &= ~mask;
    } else {
      const array = container.array as Uint16Array;
      const found = search(array, container.size, low);
      if (found < 0) return;
      array.copyWithin(found, found + 1, container.size);
    }
    container.size--;
    this.count--;
    if (container.size === 0) this.containers[high] = undefined;
  }

  /** Whether `value` is a member. */
  has(value: number): boolean {
    const container = this.containers[value >>> 16];
    if (container === undefined) return false;
    const low = value & 0xffff;
    if (container.bits) return (container.bits[low >>> 5] & (1 << (low & 31))) !== 0;
    return search(container.array as Uint16Array, container.size, low) >= 0;
  }

  /** A bitmap of `values`, given in increasing order. */
  static fromSorted(values: readonly number[]): PostingBitmap {
    const result = new PostingBitmap();
    for (let from = 0; from < values.length; ) {
      const high = values[from] >>> 16;
      let to = from;
      while (to < values.length && values[to] >>> 16 === high) to++;
      const array = new Uint16Array(to - from);
      for (let i = from; i < to; i++) array[i - from] = values[i] & 0xffff;
      const container: Container = { size: to - from, array, bits: null };
      if (container.size > ARRAY_MAX) toBitmap(container);
      result.containers[high] = container;
      result.count += container.size;
      from = to;
    }
    return result;
  }

  /** Members in increasing order. */
  toArray(): number[] {
    const out: number[] = [];
    this.forEach((value) => {
      out.push(value);
    });
    return out;
  }

  /**
   * Up to `count` members after skipping the first `skip`, in increasing order, or from the end in
   * decreasing order when `descending`: a page of rows in rowid order, without listing the others.
   */
  range(skip: number, count: number, descending = false): number[] {
    const out: number[] = [];
    const last = this.containers.length - 1;
    for (let k = 0; k <= last && out.length < count; k++) {
      const high = descending ? last - k : k;
      const container = this.containers[high];
      if (container === undefined) continue;
      if (skip >= container.size) {
        skip -= container.size;
        continue;
      }
      const base = high * 65536;
      if (container.array) {
        const array = container.array;
        for (let i = skip; i < container.size && out.length < count; i++)
          out.push(base + array[descending ? container.size - 1 - i : i]);
      } else {
        const bits = container.bits as Uint32Array;
        for (let n = 0; n < BITMAP_WORDS && out.length < count; n++) {
          const w = descending ? BITMAP_WORDS - 1 - n : n;
          let word = bits[w];
          while (word !== 0 && out.length < count) {
            const bit = descending ? 31 - Math.clz32(word) : 31 - Math.clz32(word & -word);
            word &= ~(1 << bit);
            if (skip > 0) skip--;
            else out.push(base + ((w << 5) | bit));
          }
        }
      }
      skip = 0;
    }
    return out;
  }

  /** Calls `visit` with every member in increasing order. */
  forEach(visit: (value: number) => void): void {
    this.containers.forEach((container, high) => {
      if (container === undefined) return;
      const base = high * 65536;
      if (container.bits) {
        const bits = container.bits;
        for (let w = 0; w < BITMAP_WORDS; w++) {
          let word = bits[w];
          while (word !== 0) {
            const lowest = word & -word;
            visit(base + ((w << 5) | (31 - Math.clz32(lowest))));
            word ^= lowest;
          }
        }
      } else {
        const array = container.array as Uint16Array;
        for (let i = 0; i < container.size; i++) visit(base + array[i]);
      }
    });
  }

  /** Approximate bytes held (for measuring the index). */
  get bytes(): number {
    let bytes = 0;
    for (const container of this.containers) {
      if (container) bytes += 48 + (container.bits ? BITMAP_WORDS * 4 : (container.array as Uint16Array).byteLength);
    }
    return bytes;
  }

  /** Shrinks the growable arrays of groups `from` up to (not including) `to` to their members. */
  trimGroups(from: number, to: number): void {
    for (let high = from; high < to && high < this.containers.length; high++) {
      const container = this.containers[high];
      if (container?.array && container.array.length > container.size) {
        container.array = packed(container.array, container.size);
      }
    }
  }

  /** Members of every bitmap in `all` (the smallest is walked first). */
  static and(all: readonly PostingBitmap[]): PostingBitmap {
    if (all.length === 0) return new PostingBitmap();
    const sorted = [...all].sort((a, b) => a.size - b.size);
    if (sorted.length === 1) return sorted[0].copy();
    // The first intersection makes the result: no copy of the smallest before it.
    let result = sorted[0].andWith(sorted[1]);
    for (let i = 2; i < sorted.length && result.count > 0; i++) result = result.andWith(sorted[i]);
    return result;
  }

  /** Members of this bitmap that `other` does not have, as a new bitmap. */
  andNot(other: PostingBitmap): PostingBitmap {
    const result = new PostingBitmap();
    this.containers.forEach((left, high) => {
      if (left === undefined) return;
      const container = andNotContainers(left, other.containers[high]);
      if (container) {
        result.containers[high] = container;
        result.count += container.size;
      }
    });
    return result;
  }

  /** Members of any bitmap in `all`. */
  static or(all: readonly PostingBitmap[]): PostingBitmap {
    const result = new PostingBitmap();
    const highs = new Set<number>();
    for (const bitmap of all) {
      bitmap.containers.forEach((container, high) => {
        if (container !== undefined) highs.add(high);
      });
    }
    for (const high of highs) result.setGroup(high, union(all.map((bitmap) => bitmap.containers[high])));
    return result;
  }

  /**
   * Adds every member of `other`, in place (a search's own result taking its overlay's rows): a
   * group this bitmap lacks is copied, a few members are added one by one, and larger groups are
   * united as bitmaps, so the cost follows `other`'s groups rather than its members.
   */
  addAll(other: PostingBitmap): void {
    other.containers.forEach((right, high) => {
      if (right === undefined) return;
      const left = this.containers[high];
      if (left === undefined) this.setGroup(high, copyOf(right));
      else if (right.array && right.size <= FEW_TO_ADD) {
        for (let i = 0; i < right.size; i++) this.add(high * 0x10000 + right.array[i]);
      } else {
        this.count -= left.size;
        this.containers[high] = undefined;
        this.setGroup(high, union([left, right]));
      }
    });
  }

  /** Puts `container` (if any) as group `high`, which is empty. */
  private setGroup(high: number, container: Container | null): void {
    if (container === null) return;
    this.containers[high] = container;
    this.count += container.size;
  }

  /** Members of this bitmap that `other` has too, as a new bitmap. */
  private andWith(other: PostingBitmap): PostingBitmap {
    const result = new PostingBitmap();
    this.containers.forEach((left, high) => {
      const right = other.containers[high];
      if (left === undefined || right === undefined) return;
      const container = andContainers(left, right);
      if (container) {
        result.containers[high] = container;
        result.count += container.size;
      }
    });
    return result;
  }

  /** Writes the bitmap for `PostingBitmap.read` (search-bitmap-snapshot.ts). */
  write(out: SnapshotWriter): void {
    writeGroups(out, this.containers);
  }

  /**
   * A bitmap as `write` wrote it. Its groups are checked now and read when first used, as views of
   * the reader's buffer (see `unread`).
   */
  static read(input: SnapshotReader): PostingBitmap {
    const result = new PostingBitmap();
    const start = input.fork();
    const members = skipGroups(input);
    if (members > 0) {
      result.unread = start;
      result.count = members;
    }
    return result;
  }

  /** Reads the groups `read` passed over (checked there). */
  private readGroups(): void {
    const input = this.unread as SnapshotReader;
    this.unread = null;
    readGroups(input, this.groups);
  }

  /** An independent copy (results must not change under a caller when the index does). */
  copy(): PostingBitmap {
    const result = new PostingBitmap();
    this.containers.forEach((container, high) => {
      if (container !== undefined) result.containers[high] = copyOf(container);
    });
    result.count = this.count;
    return result;
  }
}

/** Members of one group of `addAll`'s other bitmap added one by one, up to this many. */
const FEW_TO_ADD = 64;
