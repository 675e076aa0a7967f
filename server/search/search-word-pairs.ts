import { PostingBitmap } from './search-posting-bitmap.js';
import type { PostingStage } from './search-posting-stage.js';
import type { SnapshotReader, SnapshotWriter } from './search-snapshot-codec.js';

/**
 * The rows of every pair of adjacent words in the index's text, by what separates them: for text
 * `… kilo victor …`, the pair (kilo, victor) under the separator " ". The separator is the whole
 * maximal run of non-word units between the two words (" ", "-", " 12 ").
 *
 * A keyword `a` + `g` + `b` (a word run, a run of other code units, a word run, nothing before or
 * after) occurs in a text exactly when some pair of adjacent words there has a first word ending
 * with `a`, the separator `g` itself, and a second word starting with `b`: `a` ends a word since
 * `g` follows it, `g` then spans the whole run between the words since a word unit follows it, and
 * `b` starts the next word. So two-word keywords, the most common with a space, are unions of
 * pairs' rows, with no row to check.
 *
 * Words are the vocabulary's ids. Past `MAX_PAIRS` distinct pairs (prose has many) the pairs give
 * up, and such keywords are answered through candidates again.
 */

/** Distinct pairs kept at most. */
const MAX_PAIRS = 1 << 17;
/** Pair keys are `first * SPAN + second` (word ids stay below the vocabulary's limit). */
const SPAN = 2 ** 20;

/** See the module comment. */
export class WordPairs {
  /** Pairs' rows by separator, then by pair key. */
  private bySeparator = new Map<string, Map<number, PostingBitmap>>();
  private count = 0;
  private gaveUp = false;

  constructor(private readonly maxPairs = MAX_PAIRS) {}

  /** Adds `rowid` to (or removes it from) the rows of the pair `first`, `separator`, `second`. */
  note(
    first: number,
    separator: string,
    second: number,
    rowid: number,
    add: boolean,
    stage: PostingStage | null = null,
  ): void {
    if (this.gaveUp) return;
    const key = first * SPAN + second;
    let pairs = this.bySeparator.get(separator);
    let bitmap = pairs?.get(key);
    if (!add) {
      bitmap?.remove(rowid);
      return;
    }
    if (bitmap === undefined) {
      if (this.count >= this.maxPairs) {
        this.giveUp();
        return;
      }
      if (pairs === undefined) {
        pairs = new Map();
        this.bySeparator.set(separator, pairs);
      }
      bitmap = new PostingBitmap();
      pairs.set(key, bitmap);
      this.count++;
    }
    if (stage) stage.add(bitmap, rowid);
    else bitmap.add(rowid);
  }

  /**
   * Rows holding a pair separated by `separator` whose words `firsts` and `seconds` accept (by
   * word id), or null once the pairs gave up.
   */
  rows(separator: string, firsts: (id: number) => boolean, seconds: (id: number) => boolean): PostingBitmap | null {
    if (this.gaveUp) return null;
    const matched: PostingBitmap[] = [];
    // forEach, not for-of: iterating a Map's entries made an array per pair, thousands a search.
    this.bySeparator.get(separator)?.forEach((bitmap, key) => {
      const first = Math.floor(key / SPAN);
      if (firsts(first) && seconds(key - first * SPAN)) matched.push(bitmap);
    });
    // One pair's own bitmap as it is: callers intersect it into a new one, never change it.
    return matched.length === 1 ? matched[0] : PostingBitmap.or(matched);
  }

  /**
   * Rows holding a pair whose separator `separators` accepts and whose words `firsts` and `seconds`
   * accept, or null once the pairs gave up.
   */
  rowsWhere(
    separators: (separator: string) => boolean,
    firsts: (id: number) => boolean,
    seconds: (id: number) => boolean,
  ): PostingBitmap | null {
    if (this.gaveUp) return null;
    const matched: PostingBitmap[] = [];
    for (const separator of this.bySeparator.keys()) {
      if (!separators(separator)) continue;
      const rows = this.rows(separator, firsts, seconds) as PostingBitmap;
      if (rows.size > 0) matched.push(rows);
    }
    return matched.length === 1 ? matched[0] : PostingBitmap.or(matched);
  }

  /** Every pair's rows. */
  *bitmaps(): IterableIterator<PostingBitmap> {
    for (const pairs of this.bySeparator.values()) yield* pairs.values();
  }

  /** Writes the pairs for `WordPairs.read` (search-snapshot-codec.ts). */
  write(out: SnapshotWriter): void {
    out.u32(this.maxPairs);
    out.u32(this.gaveUp ? 1 : 0);
    out.u32(this.bySeparator.size);
    for (const [separator, pairs] of this.bySeparator) {
      out.string(separator);
      out.u32(pairs.size);
      for (const [key, bitmap] of pairs) {
        out.f64(key);
        bitmap.write(out);
      }
    }
  }

  /** Pairs as `write` wrote them. */
  static read(input: SnapshotReader): WordPairs {
    const pairs = new WordPairs(input.u32());
    pairs.gaveUp = input.u32() === 1;
    for (let separators = input.u32(); separators > 0; separators--) {
      const separator = input.string();
      const bySeparator = new Map<number, PostingBitmap>();
      for (let count = input.u32(); count > 0; count--) {
        const key = input.f64();
        bySeparator.set(key, PostingBitmap.read(input));
      }
      pairs.bySeparator.set(separator, bySeparator);
      pairs.count += bySeparator.size;
    }
    return pairs;
  }

  private giveUp(): void {
    this.gaveUp = true;
    this.bySeparator = new Map();
  }
}
