import { PostingBitmap } from './search-posting-bitmap.js';
import type { SnapshotReader, SnapshotWriter } from './search-snapshot-codec.js';

/**
 * Posting bitmaps by n-gram key. Latin-1 n-grams (small integer keys) sit in an open-addressing
 * table of typed arrays, several times faster than a Map on the build's hot path; others in a Map.
 */
export class GramMap {
  private bits = 12;
  private keys = new Int32Array(1 << 12).fill(-1);
  private slots = new Int32Array(1 << 12);
  private readonly bitmaps: PostingBitmap[] = [];
  private readonly others = new Map<string, PostingBitmap>();

  get(key: number | string): PostingBitmap | undefined {
    if (typeof key === 'string') return this.others.get(key);
    const at = this.find(key);
    return this.keys[at] === key ? this.bitmaps[this.slots[at]] : undefined;
  }

  set(key: number | string, bitmap: PostingBitmap): void {
    if (typeof key === 'string') {
      this.others.set(key, bitmap);
      return;
    }
    if ((this.bitmaps.length + 1) * 2 > this.keys.length) this.grow();
    const at = this.find(key);
    this.keys[at] = key;
    this.slots[at] = this.bitmaps.length;
    this.bitmaps.push(bitmap);
  }

  *values(): IterableIterator<PostingBitmap> {
    yield* this.bitmaps;
    yield* this.others.values();
  }

  /** Every key with its bitmap. */
  *entries(): IterableIterator<[number | string, PostingBitmap]> {
    for (let at = 0; at < this.keys.length; at++) {
      if (this.keys[at] !== -1) yield [this.keys[at], this.bitmaps[this.slots[at]]];
    }
    yield* this.others.entries();
  }

  /** Writes the map for `GramMap.read` (search-snapshot-codec.ts). */
  write(out: SnapshotWriter): void {
    out.u32(this.bitmaps.length);
    for (let at = 0; at < this.keys.length; at++) {
      if (this.keys[at] === -1) continue;
      out.u32(this.keys[at]);
      this.bitmaps[this.slots[at]].write(out);
    }
    out.u32(this.others.size);
    for (const [key, bitmap] of this.others) {
      out.string(key);
      bitmap.write(out);
    }
  }

  /** A map as `write` wrote it. */
  static read(input: SnapshotReader): GramMap {
    const map = new GramMap();
    for (let count = input.u32(); count > 0; count--) {
      const key = input.u32();
      map.set(key, PostingBitmap.read(input));
    }
    for (let count = input.u32(); count > 0; count--) {
      const key = input.string();
      map.set(key, PostingBitmap.read(input));
    }
    return map;
  }

  /** The slot holding `key`, or the empty one where it would go. */
  private find(key: number): number {
    const mask = this.keys.length - 1;
    let at = Math.imul(key, 0x9e3779b1) >>> (32 - this.bits);
    while (this.keys[at] !== -1 && this.keys[at] !== key) at = (at + 1) & mask;
    return at;
  }

  private grow(): void {
    const keys = this.keys;
    const slots = this.slots;
    this.bits++;
    this.keys = new Int32Array(1 << this.bits).fill(-1);
    this.slots = new Int32Array(1 << this.bits);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === -1) continue;
      const at = this.find(keys[i]);
      this.keys[at] = keys[i];
      this.slots[at] = slots[i];
    }
  }
}

/** Posting bitmaps by UTF-16 code unit, looked up directly. */
export class CharacterMap {
  private readonly byCode: (PostingBitmap | undefined)[] = new Array(65536);
  private readonly bitmaps: PostingBitmap[] = [];

  get(code: number): PostingBitmap | undefined {
    return this.byCode[code];
  }

  set(code: number, bitmap: PostingBitmap): void {
    this.byCode[code] = bitmap;
    this.bitmaps.push(bitmap);
  }

  values(): readonly PostingBitmap[] {
    return this.bitmaps;
  }

  /** Writes the map for `CharacterMap.read` (search-snapshot-codec.ts). */
  write(out: SnapshotWriter): void {
    out.u32(this.bitmaps.length);
    for (let code = 0; code < this.byCode.length; code++) {
      const bitmap = this.byCode[code];
      if (bitmap === undefined) continue;
      out.u32(code);
      bitmap.write(out);
    }
  }

  /** A map as `write` wrote it. */
  static read(input: SnapshotReader): CharacterMap {
    const map = new CharacterMap();
    for (let count = input.u32(); count > 0; count--) {
      const code = input.u32() & 0xffff;
      map.set(code, PostingBitmap.read(input));
    }
    return map;
  }
}
