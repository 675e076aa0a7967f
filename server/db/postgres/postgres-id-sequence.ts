import { PostingBitmap } from '../../search/search-posting-bitmap.js';
import { SnapshotFormatError, type SnapshotReader, type SnapshotWriter } from '../../search/search-snapshot-codec.js';

/**
 * The row numbers of PostgreSQL's in-memory search index (postgres-memory-search.ts) in the
 * table's `id` order, so that a page of matches in id order (lists' default order) is found by
 * walking it in memory and keeping matches, and only the page's rows are read, rather than passing
 * every match to PostgreSQL.
 *
 * Ids are Quire's time-ordered ids, so a new row usually comes last; rows of writes that commit
 * out of order come a little before the end, and are placed among the last TAIL ids kept. A row
 * whose id falls before those (an id written by hand, an import of old ids) makes the sequence
 * unusable until the index is built again: pages are then put together by SQL. Deleted rows stay
 * in the sequence (matches never hold them); an id never changes, so updates change nothing.
 * Ids are compared as JavaScript strings, which orders ASCII text as the `collate "C"` id column
 * does; an id that is not ASCII makes the sequence unusable.
 */

/** Ids kept from the end of the sequence, among which late rows are placed. */
const TAIL = 4096;

// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the point.
const ASCII = /^[\u0000-\u007f]*$/;

/** See the module comment. */
export class IdSequence {
  private numbers: Int32Array = new Int32Array(1024);
  private length = 0;
  /** Each row number's index in `numbers` (rows are inserted near the end: few move). */
  private positions: Int32Array = new Int32Array(1024);
  private held = new PostingBitmap();
  /** The ids of the last `tailIds.length` entries, in order. */
  private tailIds: string[] = [];
  private usable = true;

  /** Whether pages in id order can be walked here. */
  get holds(): boolean {
    return this.usable;
  }

  /** Entries in the sequence (deleted rows included). */
  get size(): number {
    return this.length;
  }

  /** The next row of the build, which reads rows in id order. */
  append(n: number, id: unknown): void {
    if (!this.usable) return;
    if (typeof id !== 'string' || !ASCII.test(id)) {
      this.usable = false;
      return;
    }
    const last = this.tailIds[this.tailIds.length - 1];
    if (last !== undefined && id <= last) {
      this.usable = false;
      return;
    }
    this.insertAt(this.length, n);
    this.tailIds.push(id);
    if (this.tailIds.length > 2 * TAIL) this.tailIds = this.tailIds.slice(-TAIL);
  }

  /** A row written since the build: placed by its id if it is new to the sequence. */
  written(n: number, id: unknown): void {
    if (!this.usable || this.held.has(n)) return;
    if (typeof id !== 'string' || !ASCII.test(id)) {
      this.usable = false;
      return;
    }
    const last = this.tailIds[this.tailIds.length - 1];
    if (last === undefined || id > last) {
      this.append(n, id);
      return;
    }
    // Before the last id: its place among the tail, found by binary search.
    let low = 0;
    let high = this.tailIds.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.tailIds[middle] < id) low = middle + 1;
      else high = middle;
    }
    if (low === 0 && this.tailIds.length < this.length) {
      this.usable = false;
      return;
    }
    // The tail's entries are the sequence's last ones: entry `low` of it is at this index.
    const index = this.length - this.tailIds.length + low;
    this.tailIds.splice(low, 0, id);
    this.insertAt(index, n);
  }

  /**
   * The first `count` row numbers after skipping `skip`, of those `matches` holds, in id order (or
   * its reverse).
   */
  page(matches: PostingBitmap, skip: number, count: number, descending: boolean): number[] {
    const found: number[] = [];
    const wanted = skip + count;
    // Few matches: sorted by their places, rather than walking the sequence to find them.
    const walked = (wanted * this.length) / Math.max(matches.size, 1);
    if (matches.size * Math.log2(matches.size + 1) < walked) {
      const places = new Int32Array(matches.size);
      let i = 0;
      for (const n of matches.toArray()) places[i++] = this.held.has(n) ? this.positions[n] : -1;
      places.sort();
      for (const place of descending ? places.reverse() : places) {
        if (place < 0) continue;
        if (found.length === wanted) break;
        found.push(this.numbers[place]);
      }
      return found.slice(skip);
    }
    let kept = 0;
    const step = descending ? -1 : 1;
    for (let i = descending ? this.length - 1 : 0; i >= 0 && i < this.length && kept < wanted; i += step) {
      const n = this.numbers[i];
      if (!matches.has(n)) continue;
      if (kept++ >= skip) found.push(n);
    }
    return found;
  }

  /** Writes the sequence for `IdSequence.read` (search-snapshot-codec.ts). */
  write(out: SnapshotWriter): void {
    out.u32(this.usable ? 1 : 0);
    out.u32(this.length);
    out.u32s(new Uint32Array(this.numbers.buffer, this.numbers.byteOffset, this.length));
    out.u32(this.positions.length);
    out.u32s(new Uint32Array(this.positions.buffer, this.positions.byteOffset, this.positions.length));
    this.held.write(out);
    out.u32(this.tailIds.length);
    for (const id of this.tailIds) out.string(id);
  }

  /** A sequence as `write` wrote it (its arrays are views of the reader's buffer until they grow). */
  static read(input: SnapshotReader): IdSequence {
    const sequence = new IdSequence();
    sequence.usable = input.u32() === 1;
    sequence.length = input.u32();
    const numbers = input.u32s(sequence.length);
    sequence.numbers = new Int32Array(numbers.buffer, numbers.byteOffset, numbers.length);
    const positions = input.u32s(input.u32());
    sequence.positions = new Int32Array(positions.buffer, positions.byteOffset, positions.length);
    sequence.held = PostingBitmap.read(input);
    const tail = input.u32();
    if (tail > sequence.length) throw new SnapshotFormatError('an id sequence holds more ids than rows');
    sequence.tailIds = [];
    for (let k = 0; k < tail; k++) sequence.tailIds.push(input.string());
    return sequence;
  }

  private insertAt(index: number, n: number): void {
    if (this.length === this.numbers.length) {
      const grown = new Int32Array(Math.max(1024, this.numbers.length * 2));
      grown.set(this.numbers);
      this.numbers = grown;
    }
    this.numbers.copyWithin(index + 1, index, this.length);
    this.numbers[index] = n;
    this.length++;
    this.held.add(n);
    if (n >= this.positions.length) {
      const grown = new Int32Array(Math.max(n + 1, this.positions.length * 2));
      grown.set(this.positions);
      this.positions = grown;
    }
    for (let i = index; i < this.length; i++) this.positions[this.numbers[i]] = i;
  }
}
