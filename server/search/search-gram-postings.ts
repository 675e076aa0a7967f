import { CharacterMap, GramMap } from './search-gram-maps.js';
import { PostingBitmap } from './search-posting-bitmap.js';
import type { PostingStage } from './search-posting-stage.js';
import type { SnapshotReader, SnapshotWriter } from './search-snapshot-codec.js';
import { isWordUnit } from './search-token-vocabulary.js';

/**
 * The character and trigram postings of a MemorySearchIndex (search-memory-index.ts): a posting
 * bitmap per UTF-16 code unit and per code-unit trigram of every column, padded with a boundary
 * mark (U+0001) at both ends.
 *
 * - A 1-character keyword is the character's bitmap; a 3-character one the trigram's; a
 *   2-character one the union of the trigrams ending with it (every pair ends a padded trigram).
 *   These are exact: no row needs checking, so counts are cardinalities.
 * - Trigrams with a space or the end mark in second or third place are not kept (`isGap`): spaces
 *   between words make the most distinct trigrams of titles, a sixth of the postings, and the kept
 *   title text can confirm them (slugs, kept as postings only, hold hyphens instead). A pair or
 *   trigram keyword that would need one, and any longer keyword, is the intersection of the
 *   bitmaps of its characters, of its kept trigrams and of the words its word runs must start or
 *   end, each candidate then checked against the stored folded text.
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

/** A trigram's key: a small integer for Latin-1 text (fast to hash), else its text. */
const trigramKey = (a: number, b: number, c: number): number | string =>
  (a | b | c) < 256 ? (a << 16) | (b << 8) | c : String.fromCharCode(a, b, c);
/** The key of a pair of code units (the end of trigrams). */
const pairKey = (b: number, c: number): number | string => ((b | c) < 256 ? (b << 8) | c : String.fromCharCode(b, c));

/** The character and trigram postings of an index (see the module comment). */
export class GramPostings {
  private characters = new CharacterMap();
  private trigrams = new GramMap();
  /** Trigram keys by their last two code units (`pairKey`), for 2-character keywords. */
  private readonly trigramsEndingWith = new Map<number | string, (number | string)[]>();

  /**
   * `wordTrigrams`: whether trigrams made only of word units are kept too (see the constructor of
   * MemorySearchIndex).
   */
  constructor(private readonly wordTrigrams: boolean) {}

  /**
   * Adds (or removes) `rowid` to the postings of every character and padded trigram of `column`,
   * through `stage` when given.
   */
  note(column: string, rowid: number, add: boolean, stage: PostingStage | null): void {
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
        if (stage) stage.add(character, rowid);
        else character.add(rowid);
      }
      if (!isGap(b) && !isGap(c) && (this.wordTrigrams || !isWordUnit(a) || !isWordUnit(b) || !isWordUnit(c))) {
        const key = trigramKey(a, b, c);
        let trigram = this.trigrams.get(key);
        if (!add) trigram?.remove(rowid);
        else {
          trigram ??= this.newTrigram(key, b, c);
          if (stage) stage.add(trigram, rowid);
          else trigram.add(rowid);
        }
      }
      a = b;
      b = c;
    }
  }

  /** Rows containing a keyword of 1 to 3 code units, from postings alone, when they can tell. */
  exactly(folded: string): PostingBitmap | null {
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

  /**
   * Bitmaps whose intersection holds every row containing `folded` (to be checked against text):
   * `words` first, if any (the rows of the words its word runs must start, end or be), then its
   * indexed trigrams, but for those inside one word run when there are `words`; its characters
   * only when neither says anything.
   */
  candidates(folded: string, words: PostingBitmap | null): PostingBitmap[] {
    const sets: PostingBitmap[] = words === null ? [] : [words];
    for (let i = 0; i + 3 <= folded.length; i++) {
      const a = folded.charCodeAt(i);
      const b = folded.charCodeAt(i + 1);
      const c = folded.charCodeAt(i + 2);
      // A trigram inside one word run is in every word that run must start or end.
      if (words !== null && isWordUnit(a) && isWordUnit(b) && isWordUnit(c)) continue;
      if (!isGap(b) && !isGap(c)) sets.push(this.trigram(a, b, c));
    }
    if (sets.length > 0) return sets;
    const codes = new Set<number>();
    for (let i = 0; i < folded.length; i++) codes.add(folded.charCodeAt(i));
    for (const code of codes) sets.push(this.characters.get(code) ?? new PostingBitmap());
    return sets;
  }

  /** Shrinks the growable arrays of groups `from` up to `to` (see PostingBitmap.trimGroups). */
  trimGroups(from: number, to: number): void {
    for (const bitmap of this.characters.values()) bitmap.trimGroups(from, to);
    for (const bitmap of this.trigrams.values()) bitmap.trimGroups(from, to);
  }

  /** Approximate bytes held, for measurements. */
  get bytes(): number {
    let bytes = 0;
    for (const bitmap of this.characters.values()) bytes += bitmap.bytes;
    for (const bitmap of this.trigrams.values()) bytes += bitmap.bytes;
    return bytes;
  }

  /** Writes the postings for `GramPostings.read` (search-snapshot-codec.ts). */
  write(out: SnapshotWriter): void {
    this.characters.write(out);
    this.trigrams.write(out);
  }

  /** Postings as `write` wrote them, for an index with or without word trigrams. */
  static read(input: SnapshotReader, wordTrigrams: boolean): GramPostings {
    const postings = new GramPostings(wordTrigrams);
    postings.characters = CharacterMap.read(input);
    postings.trigrams = GramMap.read(input);
    for (const [key] of postings.trigrams.entries()) {
      if (typeof key === 'number') postings.noteEnding(key, (key >>> 8) & 0xff, key & 0xff);
      else postings.noteEnding(key, key.charCodeAt(1), key.charCodeAt(2));
    }
    return postings;
  }

  private trigram(a: number, b: number, c: number): PostingBitmap {
    return this.trigrams.get(trigramKey(a, b, c)) ?? new PostingBitmap();
  }

  private newTrigram(key: number | string, b: number, c: number): PostingBitmap {
    const bitmap = new PostingBitmap();
    this.trigrams.set(key, bitmap);
    this.noteEnding(key, b, c);
    return bitmap;
  }

  /** Notes the trigram `key` (ending with `b`, `c`) under its last two code units. */
  private noteEnding(key: number | string, b: number, c: number): void {
    const ending = pairKey(b, c);
    const keys = this.trigramsEndingWith.get(ending);
    if (keys) keys.push(key);
    else this.trigramsEndingWith.set(ending, [key]);
  }
}
