import { PostingBitmap } from './search-posting-bitmap.js';
import {
  type LaterPart,
  SnapshotFormatError,
  type SnapshotReader,
  type SnapshotWriter,
} from './search-snapshot-codec.js';

/** A block of the text store: the rows whose rowid shares the same high 16 bits. */
const BLOCK_ROWS = 65536;

/** One block of the text store: UTF-8 text of rows in rowid order, and where each row's starts. */
interface TextBlock {
  buffer: Buffer;
  /** Bytes used. */
  length: number;
  /** `starts[low]` to `starts[low + 1]` is the text of row `high * 65536 + low` (below `filled`). */
  starts: Uint32Array;
  /** Rows below this low part have their range in `starts`. */
  filled: number;
}

/**
 * A row's text in the map of rows written after the build: the text, null (the row is gone), or,
 * in a store read back, where its saved text starts in the snapshot (decoded when first wanted).
 */
type Override = string | null | number;

/**
 * The folded text of every row, compactly: the build appends each row's first column to per-block
 * UTF-8 buffers (rows arrive in increasing rowid order); rows written after the build keep the text
 * of all their columns in a map that overrides the blocks (null: the row is gone).
 *
 * A store read back leaves those texts in the snapshot until a row's is wanted: an index read back
 * after many writes holds tens of thousands, and decoding them all would hold up a restarted
 * server's first search.
 *
 * Only keywords the index's words cannot answer (digits, separators) read the blocks, to confirm
 * their candidates. A store read back from a saved file therefore leaves its blocks in the file
 * (written `later`, see search-snapshot-codec.ts) until the first such search: memory a server
 * without one never holds. Should they then fail to read, the candidates go to SQL.
 */
export class TextStore {
  private readonly blocks: (TextBlock | undefined)[] = [];
  private readonly overrides = new Map<number, Override>();
  /** The snapshot a store read back keeps its rows' texts in (see Override). */
  private saved: SnapshotReader | null = null;
  private last = -1;
  /** The blocks of a store read back, until they are wanted. */
  private unread: LaterPart | null = null;
  /** Whether those blocks could not be read: then no row's first column can be confirmed here. */
  private unreadable = false;

  /** Whether `rowid` comes after every row appended so far. */
  canAppend(rowid: number): boolean {
    return rowid > this.last;
  }

  appendFirst(rowid: number, text: string): void {
    this.last = rowid;
    const high = Math.floor(rowid / BLOCK_ROWS);
    const low = rowid % BLOCK_ROWS;
    let block = this.blocks[high];
    if (block === undefined) {
      block = { buffer: Buffer.alloc(1 << 16), length: 0, starts: new Uint32Array(BLOCK_ROWS + 1), filled: 0 };
      this.blocks[high] = block;
    }
    const needed = block.length + text.length * 3;
    if (needed > block.buffer.length) {
      const grown = Buffer.alloc(Math.max(needed, block.buffer.length * 2));
      block.buffer.copy(grown, 0, 0, block.length);
      block.buffer = grown;
    }
    for (let k = block.filled; k <= low; k++) block.starts[k] = block.length;
    block.length += block.buffer.write(text, block.length, 'utf8');
    block.starts[low + 1] = block.length;
    block.filled = low + 1;
  }

  setFull(rowid: number, joined: string): void {
    this.overrides.set(rowid, joined);
  }

  /** The text of all columns of a row written after the build, else null. */
  full(rowid: number): string | null {
    return this.overrides.size > 0 ? (this.overrideOf(rowid) ?? null) : null;
  }

  /** A row's entry in the overrides, its saved text decoded (once) if it was left in the snapshot. */
  private overrideOf(rowid: number): string | null | undefined {
    const value = this.overrides.get(rowid);
    if (typeof value !== 'number') return value;
    const text = this.savedText(value);
    this.overrides.set(rowid, text);
    return text;
  }

  private savedText(offset: number): string {
    return (this.saved as SnapshotReader).stringAt(offset);
  }

  delete(rowid: number): void {
    this.overrides.set(rowid, null);
  }

  /**
   * The rows of `candidates` whose text contains `keyword`. Rows whose first column (all the build
   * kept) does not are added to `unsure` for SQL when `elsewhere` says their other columns might
   * (null: there are none).
   */
  confirm(
    candidates: PostingBitmap,
    keyword: string,
    unsure: number[],
    elsewhere: ((rowid: number) => boolean) | null,
  ): PostingBitmap {
    this.readBlocks();
    if (this.unreadable) return this.sentToSql(candidates, keyword, unsure);
    const needle = Buffer.from(keyword, 'utf8');
    const length = needle.length;
    // Starts are tried on the needle's first two bytes (the second its first again when alone).
    const first = needle[0];
    const second = length > 1 ? needle[1] : first;
    const from = length > 1 ? 2 : 1;
    const overridden = this.overrides.size > 0;
    const kept: number[] = [];
    let high = -1;
    let bytes: Uint8Array = new Uint8Array(0);
    let starts: Uint32Array = new Uint32Array(1);
    let filled = 0;
    // One loop over the candidates, no call per row: the check is a few dozen byte compares, so a
    // call (or a native search) per row would cost more than the check itself.
    for (const rowid of candidates.toArray()) {
      if (overridden && this.overrides.has(rowid)) {
        if (this.overrideOf(rowid)?.includes(keyword) === true) kept.push(rowid);
        continue;
      }
      const rowHigh = Math.floor(rowid / BLOCK_ROWS);
      if (rowHigh !== high) {
        high = rowHigh;
        const block = this.blocks[high];
        bytes = block?.buffer ?? new Uint8Array(0);
        starts = block?.starts ?? new Uint32Array(1);
        filled = block?.filled ?? 0;
      }
      const low = rowid - rowHigh * BLOCK_ROWS;
      let found = false;
      if (low < filled) {
        // Byte substrings of UTF-8 are exactly code-point substrings.
        const last = starts[low + 1] - length;
        for (let i = starts[low]; i <= last; i++) {
          if (bytes[i] !== first || bytes[i + from - 1] !== second) continue;
          let j = from;
          while (j < length && bytes[i + j] === needle[j]) j++;
          if (j === length) {
            found = true;
            break;
          }
        }
      }
      if (found) kept.push(rowid);
      else if (elsewhere?.(rowid)) unsure.push(rowid);
    }
    return PostingBitmap.fromSorted(kept);
  }

  /** `confirm` without the blocks: rows written since are confirmed, every other goes to SQL. */
  private sentToSql(candidates: PostingBitmap, keyword: string, unsure: number[]): PostingBitmap {
    const kept: number[] = [];
    for (const rowid of candidates.toArray()) {
      if (this.overrides.has(rowid)) {
        if (this.overrideOf(rowid)?.includes(keyword) === true) kept.push(rowid);
      } else unsure.push(rowid);
    }
    return PostingBitmap.fromSorted(kept);
  }

  /** Reads the blocks of a store read back, if it has not yet (see the class comment). */
  private readBlocks(): void {
    const unread = this.unread;
    if (unread === null) return;
    this.unread = null;
    try {
      const input = unread.read();
      for (let blocks = input.u32(); blocks > 0; blocks--) {
        const high = input.u32();
        const length = input.u32();
        const filled = input.u32();
        if (filled > BLOCK_ROWS) throw new SnapshotFormatError('a text block is out of range');
        const buffer = input.bytes(length);
        const starts = input.u32s(filled + 1);
        if (starts[filled] > length) throw new SnapshotFormatError('a text block is out of range');
        this.blocks[high] = { buffer, length, starts, filled };
      }
      if (!input.done) throw new SnapshotFormatError('the text blocks are followed by what was never written');
    } catch {
      this.blocks.length = 0;
      this.unreadable = true;
    }
  }

  trim(): void {
    for (const block of this.blocks) {
      if (block && block.buffer.length > block.length)
        block.buffer = Buffer.from(block.buffer.subarray(0, block.length));
    }
  }

  /**
   * Writes the store for `TextStore.read` (search-snapshot-codec.ts), its blocks `later`. A store
   * read back reads its blocks first; one whose blocks could not be read is not written.
   */
  write(out: SnapshotWriter): void {
    this.readBlocks();
    if (this.unreadable) throw new Error('the text of this search index could not be read back');
    out.f64(this.last);
    const later = out.later();
    let blocks = 0;
    for (const block of this.blocks) if (block) blocks++;
    later.u32(blocks);
    this.blocks.forEach((block, high) => {
      if (block === undefined) return;
      later.u32(high);
      later.u32(block.length);
      later.u32(block.filled);
      later.bytes(block.buffer.subarray(0, block.length));
      later.u32s(block.starts, block.filled + 1);
    });
    out.u32(this.overrides.size);
    for (const [rowid, value] of this.overrides) {
      out.f64(rowid);
      out.u32(value === null ? 0 : 1);
      if (value !== null) out.string(typeof value === 'number' ? this.savedText(value) : value);
    }
  }

  /**
   * A store as `write` wrote it: its blocks, read when first wanted, are views of the reader's
   * buffer, and take no more appends (only a build appends, and a written store's build is over).
   */
  static read(input: SnapshotReader): TextStore {
    const store = new TextStore();
    store.last = input.f64();
    store.unread = input.later();
    store.saved = input;
    for (let count = input.u32(); count > 0; count--) {
      const rowid = input.f64();
      if (input.u32() === 0) store.overrides.set(rowid, null);
      else {
        store.overrides.set(rowid, input.offset);
        input.skipString();
      }
    }
    return store;
  }

  get bytes(): number {
    let bytes = 0;
    for (const block of this.blocks) if (block) bytes += block.buffer.length + block.starts.byteLength;
    // Texts still in the snapshot count with its buffer, not here.
    for (const value of this.overrides.values()) bytes += 64 + (typeof value === 'string' ? value.length * 2 : 0);
    return bytes;
  }
}
