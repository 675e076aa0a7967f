import { PostingBitmap } from './search-posting-bitmap.js';
import type { PostingStage } from './search-posting-stage.js';
import type { SnapshotReader, SnapshotWriter } from './search-snapshot-codec.js';
import { WordPairs } from './search-word-pairs.js';

/**
 * The distinct words of an index's folded text, each with the rows holding it. A word (a token)
 * is a maximal run of `isWordUnit` code units, so a keyword made only of word units occurs in a
 * text exactly when it occurs inside one of the text's tokens: the rows of the tokens containing
 * it are its rows, with no row to check. Text has far fewer distinct words than rows (titles and
 * slugs repeat them), so looking through the words beats checking every candidate row.
 *
 * A keyword with other code units (spaces, hyphens, digits) still tells which tokens its word runs
 * must be: a run with something before it in the keyword starts a token, one with something after
 * it ends one, so the rows holding such tokens are its only candidates (`runs`).
 *
 * Digits are not word units: numbers are mostly distinct (one per row in a title like "Post 123"),
 * and would fill the vocabulary with words that occur once.
 */

/** Distinct tokens kept at most; past this the vocabulary gives up and answers nothing. */
const MAX_TOKENS = 1 << 17;

/** Whether a code unit belongs to a word: an ASCII letter, or anything outside ASCII. */
export function isWordUnit(code: number): boolean {
  const lower = code | 0x20;
  return code >= 0x80 || (lower >= 0x61 && lower <= 0x7a);
}

/** A run of word units in a keyword, and whether the keyword goes on before and after it. */
export interface WordRun {
  text: string;
  before: boolean;
  after: boolean;
}

/** The maximal runs of word units of `keyword`. */
export function wordRuns(keyword: string): WordRun[] {
  const runs: WordRun[] = [];
  let start = -1;
  for (let i = 0; i <= keyword.length; i++) {
    if (i < keyword.length && isWordUnit(keyword.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      runs.push({ text: keyword.slice(start, i), before: start > 0, after: i < keyword.length });
      start = -1;
    }
  }
  return runs;
}

/** One-character separators (nearly all of them), made once rather than sliced per pair. */
const SINGLE = Array.from({ length: 256 }, (_, code) => String.fromCharCode(code));

/** The separator `text[start, end)`. */
function separator(text: string, start: number, end: number): string {
  const code = text.charCodeAt(start);
  return end === start + 1 && code < 256 ? SINGLE[code] : text.slice(start, end);
}

/** See the module comment. */
export class TokenVocabulary {
  /** Token ids by hash of their text, open addressing (-1: empty): looked up without a slice. */
  private slots = new Int32Array(1024).fill(-1);
  private readonly tokens: string[] = [];
  private postings: PostingBitmap[] = [];
  private pairs = new WordPairs();
  /** Rows with a column whose first word comes after a separator (not in any pair). */
  private leading = new PostingBitmap();
  /** Set once there were more than `maxTokens` distinct tokens: nothing is kept from then on. */
  private gaveUp = false;

  /** Whether the vocabulary gave up (it answers nothing). */
  get given(): boolean {
    return this.gaveUp;
  }

  constructor(private readonly maxTokens = MAX_TOKENS) {}

  /**
   * Adds `rowid` to (or removes it from) the postings of every token of `text`, and of every pair
   * of adjacent tokens (search-word-pairs.ts).
   */
  note(text: string, rowid: number, add: boolean, stage: PostingStage | null = null): void {
    if (this.gaveUp) return;
    let start = -1;
    let previous: number | undefined;
    let previousEnd = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i < text.length && isWordUnit(text.charCodeAt(i))) {
        if (start < 0) start = i;
        continue;
      }
      if (start < 0) continue;
      const at = this.slot(text, start, i);
      let id: number | undefined = this.slots[at] >= 0 ? this.slots[at] : undefined;
      if (add && id === undefined) {
        if (this.tokens.length >= this.maxTokens) {
          this.giveUp();
          return;
        }
        id = this.tokens.length;
        this.slots[at] = id;
        this.tokens.push(text.slice(start, i));
        this.postings.push(new PostingBitmap());
        if (this.tokens.length * 2 > this.slots.length) this.grow();
      }
      if (id !== undefined) {
        if (!add) this.postings[id].remove(rowid);
        else if (stage) stage.add(this.postings[id], rowid);
        else this.postings[id].add(rowid);
        if (previous !== undefined) {
          this.pairs.note(previous, separator(text, previousEnd, start), id, rowid, add, stage);
        } else if (start > 0 && previousEnd === 0) {
          if (add) this.leading.add(rowid);
          else this.leading.remove(rowid);
        }
      }
      previous = id;
      previousEnd = i;
      start = -1;
    }
  }

  /**
   * Rows holding `first` + `separator` + `second` (word runs around a run of other code units,
   * nothing before or after), exactly; null when the vocabulary or the pairs gave up.
   */
  pairRows(first: string, separator: string, second: string): PostingBitmap | null {
    if (this.gaveUp) return null;
    const ends = this.flags((token) => token.endsWith(first));
    const starts = this.flags((token) => token.startsWith(second));
    return this.pairs.rows(
      separator,
      (id) => ends[id] === 1,
      (id) => starts[id] === 1,
    );
  }

  /** Rows holding `keyword` (word units only), exactly; null once the vocabulary gave up. */
  containing(keyword: string): PostingBitmap | null {
    return this.holding((token) => token.includes(keyword));
  }

  /**
   * The rows that may hold a keyword with these word runs (see the module comment), one bitmap per
   * run that says something; null once the vocabulary gave up.
   */
  candidates(runs: readonly WordRun[]): PostingBitmap[] | null {
    if (this.gaveUp) return null;
    const sets: PostingBitmap[] = [];
    for (const { text, before, after } of runs) {
      if (before && after) {
        const id = this.idOf(text);
        sets.push(id === undefined ? new PostingBitmap() : this.postings[id]);
      } else if (before) sets.push(this.holding((token) => token.startsWith(text)) as PostingBitmap);
      else if (after) sets.push(this.holding((token) => token.endsWith(text)) as PostingBitmap);
    }
    return sets;
  }

  /** Shrinks the growable arrays of groups `from` up to `to` (see PostingBitmap.trimGroups). */
  trimGroups(from: number, to: number): void {
    for (const bitmap of this.postings) bitmap.trimGroups(from, to);
    for (const bitmap of this.pairs.bitmaps()) bitmap.trimGroups(from, to);
    this.leading.trimGroups(from, to);
  }

  /** Approximate bytes held, for measurements. */
  get bytes(): number {
    let bytes = 0;
    for (let id = 0; id < this.tokens.length; id++) bytes += 80 + this.tokens[id].length * 2 + this.postings[id].bytes;
    for (const bitmap of this.pairs.bitmaps()) bytes += 80 + bitmap.bytes;
    return bytes;
  }

  /**
   * For a keyword of non-word units then one word run (`separator` + `word`, as "-caf"): the rows
   * holding it after an earlier word (a pair whose separator ends with `separator` and whose second
   * word starts with `word`), exactly, and the rows that may hold it before their column's first
   * word (`rest`, to be checked). Null when the vocabulary or the pairs gave up.
   */
  afterSeparator(separator: string, word: string): { rows: PostingBitmap; rest: PostingBitmap } | null {
    if (this.gaveUp) return null;
    const starts = this.flags((token) => token.startsWith(word));
    const rows = this.pairs.rowsWhere(
      (between) => between.endsWith(separator),
      () => true,
      (id) => starts[id] === 1,
    );
    if (rows === null) return null;
    const rest = PostingBitmap.and([this.leading, this.holding((token) => token.startsWith(word)) as PostingBitmap]);
    return { rows, rest };
  }

  /** Writes the vocabulary for `TokenVocabulary.read` (search-snapshot-codec.ts). */
  write(out: SnapshotWriter): void {
    out.u32(this.maxTokens);
    out.u32(this.gaveUp ? 1 : 0);
    out.u32(this.tokens.length);
    for (let id = 0; id < this.tokens.length; id++) {
      out.string(this.tokens[id]);
      this.postings[id].write(out);
    }
    this.leading.write(out);
    this.pairs.write(out);
  }

  /** A vocabulary as `write` wrote it. */
  static read(input: SnapshotReader): TokenVocabulary {
    const vocabulary = new TokenVocabulary(input.u32());
    const gaveUp = input.u32() === 1;
    const count = input.u32();
    let size = 1024;
    while (size < count * 2) size *= 2;
    vocabulary.slots = new Int32Array(size).fill(-1);
    for (let id = 0; id < count; id++) {
      const token = input.string();
      vocabulary.slots[vocabulary.slot(token, 0, token.length)] = id;
      vocabulary.tokens.push(token);
      vocabulary.postings.push(PostingBitmap.read(input));
    }
    vocabulary.leading = PostingBitmap.read(input);
    vocabulary.pairs = WordPairs.read(input);
    if (gaveUp) vocabulary.giveUp();
    return vocabulary;
  }

  /** The id of a token, if known. */
  private idOf(token: string): number | undefined {
    const id = this.slots[this.slot(token, 0, token.length)];
    return id >= 0 ? id : undefined;
  }

  /** The slot of the token `text[start, end)`: where its id is, or the empty one where it goes. */
  private slot(text: string, start: number, end: number): number {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    const mask = this.slots.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const id = this.slots[at];
      if (id < 0) return at;
      const token = this.tokens[id];
      if (token.length !== end - start) continue;
      let same = true;
      for (let k = 0; k < token.length && same; k++) same = token.charCodeAt(k) === text.charCodeAt(start + k);
      if (same) return at;
    }
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    for (let id = 0; id < this.tokens.length; id++) {
      this.slots[this.slot(this.tokens[id], 0, this.tokens[id].length)] = id;
    }
  }

  /** 1 for the ids of the tokens `accepts`, else 0. */
  private flags(accepts: (token: string) => boolean): Uint8Array {
    const flags = new Uint8Array(this.tokens.length);
    for (let id = 0; id < this.tokens.length; id++) if (accepts(this.tokens[id])) flags[id] = 1;
    return flags;
  }

  /** Rows holding any token that `accepts`. */
  private holding(accepts: (token: string) => boolean): PostingBitmap | null {
    if (this.gaveUp) return null;
    const matched: PostingBitmap[] = [];
    for (let id = 0; id < this.tokens.length; id++) if (accepts(this.tokens[id])) matched.push(this.postings[id]);
    // One word's own bitmap as it is: callers intersect it into a new one, never change it.
    return matched.length === 1 ? matched[0] : PostingBitmap.or(matched);
  }

  private giveUp(): void {
    this.gaveUp = true;
    this.slots = new Int32Array(1).fill(-1);
    this.tokens.length = 0;
    this.postings = [];
  }
}
