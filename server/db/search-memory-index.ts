import { foldForSearch } from './search-folding.js';
import { PostingBitmap } from './search-posting-bitmap.js';

/**
 * The in-memory search index of one content table: for every row (numbered by its rowid), the
 * folded text of its search columns, and a posting bitmap per character and per character trigram
 * of that text. It answers "rows whose search columns contain every keyword" exactly as the plain
 * scan does (`instr(quire_fold(column), quire_fold(keyword)) > 0` for some column):
 *
 * - Text is folded by `foldForSearch` (the plain scan's folding) and cut into UTF-16 code units; a
 *   substring of well-formed text is the same whether counted in bytes, code points or code units.
 * - Each column is indexed on its own, padded with a boundary mark (U+0001) at both ends, so a
 *   keyword never matches across two columns.
 * - A 1-character keyword is the character's bitmap; a 3-character one the trigram's; a
 *   2-character one the union of the trigrams ending with it (every pair ends a padded trigram).
 *   These are exact: no row needs checking, so counts are cardinalities.
 * - Trigrams with a space or the end mark in second or third place are not kept (`isGap`): spaces
 *   between words make the most distinct trigrams of titles, a sixth of the postings, and the kept
 *   title text can confirm them (slugs, kept as postings only, hold hyphens instead). A pair or trigram keyword that would need one, and any longer keyword,
 *   is the intersection of the bitmaps of its characters and of its kept trigrams, each candidate
 *   then checked against the stored folded text.
 * - Keywords with control characters (the boundary mark among them) or lone surrogates are left to
 *   SQL (`answerable`): they are rare, and their byte form in SQLite is not worth mirroring.
 * - Rows whose search columns hold something other than text or null (SQLite's dynamic types: a
 *   number's text form is SQLite's to decide) are kept apart in `odd`, for SQL to check.
 */

/** Marks both ends of an indexed column. */
const BOUNDARY = 0x0001;
const SPACE = 0x20;

/**
 * Whether trigrams with this code unit in second or third place are left out of the index (see
 * the module comment); keywords that would need one are answered through candidates.
 */
function isGap(code: number): boolean {
  return code === SPACE || code === BOUNDARY;
}
/** A block of the text store: the rows whose rowid shares the same high 16 bits. */
const BLOCK_ROWS = 65536;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point.
const UNANSWERABLE = /[\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Rows matching a search, and rows SQL must still check (odd ones, unconfirmed candidates). */
export interface MemoryHits {
  hits: PostingBitmap;
  unsure: number[];
}

/** Whether the index answers `keyword` (folded or not) itself. */
export function answerable(keyword: string): boolean {
  const folded = foldForSearch(keyword);
  return folded.length > 0 && !UNANSWERABLE.test(folded);
}

/** A trigram's key: a small integer for Latin-1 text (fast to hash), else its text. */
const trigramKey = (a: number, b: number, c: number): number | string =>
  (a | b | c) < 256 ? (a << 16) | (b << 8) | c : String.fromCharCode(a, b, c);
/** The key of a pair of code units (the end of trigrams). */
const pairKey = (b: number, c: number): number | string => ((b | c) < 256 ? (b << 8) | c : String.fromCharCode(b, c));

/** The folded text of a row's search columns, or null when one is neither text nor null. */
export function foldedColumns(values: readonly unknown[]): string[] | null {
  const folded: string[] = [];
  for (const value of values) {
    if (value === null || value === undefined) folded.push('');
    else if (typeof value === 'string') folded.push(foldForSearch(value));
    else return null;
  }
  return folded;
}

/** See the module comment. */
export class MemorySearchIndex {
  private readonly characters = new CharacterMap();
  private readonly trigrams = new GramMap();
  /** Trigram keys by their last two code units (`pairKey`), for 2-character keywords. */
  private readonly trigramsEndingWith = new Map<number | string, (number | string)[]>();
  private readonly text = new TextStore();
  /** Rows with a search column that is neither text nor null. */
  readonly odd = new Set<number>();

  /**
   * Rows with a space in a column after the first, whose text the build does not keep: only they
   * can match a keyword with a space that their first column does not hold.
   */
  private readonly spaceElsewhere = new PostingBitmap();
  /** Every row held (odd ones included). */
  private readonly all = new PostingBitmap();
  /** Whether the build is over: rows taken in since keep all their columns' text. */
  private sealed = false;

  constructor(private readonly columnCount: number) {}

  /** The rows held that are not in `rows` (the non-matches of a search, when it matches most). */
  others(rows: PostingBitmap): PostingBitmap {
    return this.all.andNot(rows);
  }

  /** Number of rows held (odd ones included). */
  get rows(): number {
    return this.all.size;
  }

  /**
   * Takes a row in (or replaces it): `values` are its search columns, in the index's order. During
   * the build (rows in increasing rowid order) only the first column's text is kept, compactly;
   * candidates it cannot confirm are left to SQL (see `search`).
   */
  set(rowid: number, values: readonly unknown[]): void {
    const folded = foldedColumns(values);
    const appended = !this.sealed && this.text.canAppend(rowid);
    // Rows written after the build keep all their text (and an unchanged one is left as it is).
    const joined = folded === null || appended ? null : folded.join('\u0000');
    if (joined !== null && this.text.full(rowid) === joined) return;
    this.delete(rowid);
    this.all.add(rowid);
    if (folded === null) {
      this.odd.add(rowid);
      return;
    }
    for (let i = 1; i < folded.length; i++) if (folded[i].includes(' ')) this.spaceElsewhere.add(rowid);
    if (!this.sealed) this.groupsDone(rowid);
    for (const column of folded) this.postings(column, rowid, true);
    if (joined !== null) this.text.setFull(rowid, joined);
    else this.text.appendFirst(rowid, folded[0] ?? '');
  }

  /** Forgets a row, if held. */
  delete(rowid: number): void {
    if (!this.all.has(rowid)) return;
    this.all.remove(rowid);
    this.spaceElsewhere.remove(rowid);
    if (this.odd.delete(rowid)) return;
    const full = this.text.full(rowid);
    if (full !== null) {
      for (const column of full.split('\u0000')) this.postings(column, rowid, false);
    } else {
      // Only the first column's text is known: the row leaves every bitmap.
      for (const bitmap of this.characters.values()) bitmap.remove(rowid);
      for (const bitmap of this.trigrams.values()) bitmap.remove(rowid);
    }
    this.text.delete(rowid);
  }

  /** Ends the build: shrinks its buffers; rows taken in from now on keep all their text. */
  seal(): void {
    this.sealed = true;
    this.groupsDone(Number.MAX_SAFE_INTEGER);
    this.text.trim();
  }

  /** The group of rowids the build is in (rows arrive in increasing order). */
  private group = 0;

  /**
   * Shrinks the posting arrays of the groups the build has left behind once it reaches `rowid`:
   * their growth room is freed while the build goes on, so memory stays near what is kept.
   */
  private groupsDone(rowid: number): void {
    const group = Math.floor(rowid / 65536);
    if (group <= this.group) return;
    for (const bitmap of this.characters.values()) bitmap.trimGroups(this.group, group);
    for (const bitmap of this.trigrams.values()) bitmap.trimGroups(this.group, group);
    this.group = group;
  }

  /** Approximate bytes held, for measurements. */
  get bytes(): number {
    let bytes = this.text.bytes;
    for (const bitmap of this.characters.values()) bytes += bitmap.bytes;
    for (const bitmap of this.trigrams.values()) bytes += bitmap.bytes;
    return bytes;
  }

  /**
   * Rows whose search columns contain every keyword (each one `answerable`), and rows the caller
   * must check in SQL: odd ones, and candidates for a long keyword whose first column (all the text
   * the build keeps) does not contain it. The bitmap is the caller's own.
   */
  search(keywords: readonly string[]): MemoryHits {
    const sets: PostingBitmap[] = [];
    const checked: string[] = [];
    for (const keyword of keywords) {
      const folded = foldForSearch(keyword);
      const exact = this.exactly(folded);
      if (exact) {
        sets.push(exact);
        continue;
      }
      // Candidates: rows holding every character and every indexed trigram; checked against text.
      checked.push(folded);
      const codes = new Set<number>();
      for (let i = 0; i < folded.length; i++) codes.add(folded.charCodeAt(i));
      for (const code of codes) sets.push(this.characters.get(code) ?? new PostingBitmap());
      for (let i = 0; i + 3 <= folded.length; i++) {
        const b = folded.charCodeAt(i + 1);
        const c = folded.charCodeAt(i + 2);
        if (!isGap(b) && !isGap(c)) sets.push(this.trigram(folded.charCodeAt(i), b, c));
      }
    }
    let hits = PostingBitmap.and(sets);
    const unsure = [...this.odd];
    for (const folded of checked) {
      if (hits.size === 0) break;
      const elsewhere =
        this.columnCount === 1
          ? null
          : folded.includes(' ')
            ? (rowid: number) => this.spaceElsewhere.has(rowid)
            : () => true;
      hits = this.text.confirm(hits, folded, unsure, elsewhere);
    }
    return { hits, unsure };
  }

  /** Rows containing a keyword of 1 to 3 code units, from postings alone, when they can tell. */
  private exactly(folded: string): PostingBitmap | null {
    const a = folded.charCodeAt(0);
    if (folded.length === 1) return this.characters.get(a) ?? new PostingBitmap();
    const b = folded.charCodeAt(1);
    if (folded.length === 2 && !isGap(a) && !isGap(b)) {
      const keys = this.trigramsEndingWith.get(pairKey(a, b)) ?? [];
      return PostingBitmap.or(keys.map((key) => this.trigrams.get(key) ?? new PostingBitmap()));
    }
    const c = folded.charCodeAt(2);
    if (folded.length === 3 && !isGap(b) && !isGap(c)) return this.trigram(a, b, c);
    return null;
  }

  private trigram(a: number, b: number, c: number): PostingBitmap {
    return this.trigrams.get(trigramKey(a, b, c)) ?? new PostingBitmap();
  }

  /** Adds (or removes) `rowid` to the postings of every character and padded trigram of `column`. */
  private postings(column: string, rowid: number, add: boolean): void {
    let a = BOUNDARY;
    let b = column.charCodeAt(0);
    for (let i = 0; i < column.length; i++) {
      const c = i + 1 < column.length ? column.charCodeAt(i + 1) : BOUNDARY;
      let character = this.characters.get(b);
      if (!add) character?.remove(rowid);
      else {
        if (character === undefined) {
          character = new PostingBitmap();
          this.characters.set(b, character);
        }
        character.add(rowid);
      }
      if (!isGap(b) && !isGap(c)) {
        const key = trigramKey(a, b, c);
        let trigram = this.trigrams.get(key);
        if (!add) trigram?.remove(rowid);
        else {
          trigram ??= this.newTrigram(key, b, c);
          trigram.add(rowid);
        }
      }
      a = b;
      b = c;
    }
  }

  private newTrigram(key: number | string, b: number, c: number): PostingBitmap {
    const bitmap = new PostingBitmap();
    this.trigrams.set(key, bitmap);
    const ending = pairKey(b, c);
    const keys = this.trigramsEndingWith.get(ending);
    if (keys) keys.push(key);
    else this.trigramsEndingWith.set(ending, [key]);
    return bitmap;
  }
}

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
 * The folded text of every row, compactly: the build appends each row's first column to per-block
 * UTF-8 buffers (rows arrive in increasing rowid order); rows written after the build keep the text
 * of all their columns in a map that overrides the blocks (null: the row is gone).
 */
class TextStore {
  private readonly blocks: (TextBlock | undefined)[] = [];
  private readonly overrides = new Map<number, string | null>();
  private last = -1;

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
    return this.overrides.size > 0 ? (this.overrides.get(rowid) ?? null) : null;
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
    const needle = Buffer.from(keyword, 'utf8');
    const first = needle[0];
    const length = needle.length;
    let block: TextBlock | undefined;
    let high = -1;
    return candidates.filter((rowid) => {
      if (this.overrides.size > 0 && this.overrides.has(rowid)) {
        return this.overrides.get(rowid)?.includes(keyword) === true;
      }
      const rowHigh = Math.floor(rowid / BLOCK_ROWS);
      if (rowHigh !== high) {
        high = rowHigh;
        block = this.blocks[high];
      }
      const low = rowid - rowHigh * BLOCK_ROWS;
      if (block !== undefined && low < block.filled) {
        // Byte substrings of UTF-8 are exactly code-point substrings. A loop here beats a native
        // search per row: rows are short, and the call costs more than the scan.
        const bytes = block.buffer;
        const last = block.starts[low + 1] - length;
        for (let i = block.starts[low]; i <= last; i++) {
          if (bytes[i] !== first) continue;
          let j = 1;
          while (j < length && bytes[i + j] === needle[j]) j++;
          if (j === length) return true;
        }
      }
      if (elsewhere?.(rowid)) unsure.push(rowid);
      return false;
    });
  }

  trim(): void {
    for (const block of this.blocks) {
      if (block && block.buffer.length > block.length)
        block.buffer = Buffer.from(block.buffer.subarray(0, block.length));
    }
  }

  get bytes(): number {
    let bytes = 0;
    for (const block of this.blocks) if (block) bytes += block.buffer.length + block.starts.byteLength;
    for (const text of this.overrides.values()) bytes += 64 + (text?.length ?? 0) * 2;
    return bytes;
  }
}

/**
 * Posting bitmaps by n-gram key. Latin-1 n-grams (small integer keys) sit in an open-addressing
 * table of typed arrays, several times faster than a Map on the build's hot path; others in a Map.
 */
class GramMap {
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
class CharacterMap {
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
}
