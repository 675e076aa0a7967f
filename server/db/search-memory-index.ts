import { foldForSearch } from './search-folding.js';
import { CharacterMap, GramMap } from './search-gram-maps.js';
import { PostingBitmap } from './search-posting-bitmap.js';
import { PostingStage } from './search-posting-stage.js';
import { SnapshotFormatError, type SnapshotReader, type SnapshotWriter } from './search-snapshot-codec.js';
import { TextStore } from './search-text-store.js';
import { isWordUnit, TokenVocabulary, type WordRun, wordRuns } from './search-token-vocabulary.js';

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
 * - A keyword of 2 characters or more made only of word units (letters) is the union of the rows
 *   of the words containing it (search-token-vocabulary.ts), and one of two word runs around other
 *   code units ("kilo victor") the union of the rows of matching pairs of adjacent words
 *   (search-word-pairs.ts): exact, and no row to check.
 * - A 1-character keyword is the character's bitmap; a 3-character one the trigram's; a
 *   2-character one the union of the trigrams ending with it (every pair ends a padded trigram).
 *   These are exact: no row needs checking, so counts are cardinalities.
 * - Trigrams with a space or the end mark in second or third place are not kept (`isGap`): spaces
 *   between words make the most distinct trigrams of titles, a sixth of the postings, and the kept
 *   title text can confirm them (slugs, kept as postings only, hold hyphens instead). A pair or
 *   trigram keyword that would need one, and any longer keyword, is the intersection of the
 *   bitmaps of its characters, of its kept trigrams and of the words its word runs must start or
 *   end, each candidate then checked against the stored folded text.
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
  private characters = new CharacterMap();
  private trigrams = new GramMap();
  /** Trigram keys by their last two code units (`pairKey`), for 2-character keywords. */
  private readonly trigramsEndingWith = new Map<number | string, (number | string)[]>();
  private text = new TextStore();
  private words: TokenVocabulary;
  /** Rows with a search column that is neither text nor null. */
  odd = new Set<number>();

  /**
   * Rows with a space in a column after the first, whose text the build does not keep: only they
   * can match a keyword with a space that their first column does not hold.
   */
  private spaceElsewhere = new PostingBitmap();
  /** Every row held (odd ones included). */
  private all = new PostingBitmap();
  /**
   * Rows of the build written since (changed or deleted), whose postings are left as they were: the
   * build kept only their first column's text, so which postings they had is not known, and taking
   * them out of every bitmap cost about 1 ms a row at 1M rows (seconds for a burst of updates, all
   * paid by the next search or the save at a clean stop). Searches leave them out of what the
   * postings say and take them from `overlay` instead.
   */
  private shadowed = new PostingBitmap();
  /**
   * An index of the rows written since the build (shadowed rows with their new values, and new
   * rows), with all their text; null until one is. The build's postings then never change: adding
   * a row to a bitmap read from a saved index made objects of all its groups (12k new and 8k
   * changed rows on a loaded 1M-row index: 12 MB more heap, and 1.5 times the time), where the
   * overlay's bitmaps hold only the new rows.
   */
  private overlay: MemorySearchIndex | null = null;
  /** Whether rows written after the build go to `overlay` (false in an overlay itself). */
  private layered = true;
  /** The build's postings, applied in batches (search-posting-stage.ts); null once sealed. */
  private stage: PostingStage | null = new PostingStage();
  /** Whether the build is over: rows taken in since keep all their columns' text. */
  private get sealed(): boolean {
    return this.stage === null;
  }

  /**
   * `wordTrigrams`: whether trigrams made only of word units are kept too. The vocabulary answers
   * every keyword they would serve, so they are left out (most of the postings of titles), unless
   * the table has more distinct words than the vocabulary keeps (`maxWords`): then they are the
   * candidates' postings again, and an index built without them cannot answer (`complete`).
   */
  constructor(
    private readonly columnCount: number,
    private readonly wordTrigrams = false,
    maxWords?: number,
  ) {
    this.words = new TokenVocabulary(maxWords);
  }

  /** False once the vocabulary gave up in an index without word trigrams: build one with them. */
  get complete(): boolean {
    return this.wordTrigrams || !this.words.given;
  }

  /** The rows held that are not in `rows` (the non-matches of a search, when it matches most). */
  others(rows: PostingBitmap): PostingBitmap {
    return this.all.andNot(rows);
  }

  /** Number of rows held (odd ones included). */
  get rows(): number {
    return this.all.size;
  }

  /** Every row held (odd ones included): the caller's to read, not to change. */
  get held(): PostingBitmap {
    return this.all;
  }

  /**
   * Takes a row in (or replaces it): `values` are its search columns, in the index's order. During
   * the build (rows in increasing rowid order) only the first column's text is kept, compactly;
   * candidates it cannot confirm are left to SQL (see `search`).
   */
  set(rowid: number, values: readonly unknown[]): void {
    if (this.heldApart(rowid)) {
      this.toOverlay(rowid, values);
      return;
    }
    const folded = foldedColumns(values);
    const appended = !this.sealed && this.text.canAppend(rowid);
    // Rows written after the build keep all their text (and an unchanged one is left as it is).
    const joined = folded === null || appended ? null : folded.join('\u0000');
    if (joined !== null && this.text.full(rowid) === joined) return;
    this.delete(rowid);
    // The delete may have set a row of the build aside.
    if (this.heldApart(rowid)) {
      this.toOverlay(rowid, values);
      return;
    }
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

  /** Whether `rowid` is held in the overlay: every row once the build is over, during it a row set aside. */
  private heldApart(rowid: number): boolean {
    return this.layered && (this.sealed || (this.overlay !== null && this.shadowed.has(rowid)));
  }

  /** Puts a row in the overlay, out of the build's postings first if it was in them. */
  private toOverlay(rowid: number, values: readonly unknown[]): void {
    if (!this.overlay?.all.has(rowid)) {
      this.delete(rowid);
      this.overlay ??= MemorySearchIndex.overlayOf(this.columnCount, this.wordTrigrams);
      this.all.add(rowid);
    }
    this.overlay.set(rowid, values);
  }

  /** A sealed index whose rows all keep their text and postings (an index's overlay). */
  private static overlayOf(columnCount: number, wordTrigrams: boolean): MemorySearchIndex {
    const overlay = new MemorySearchIndex(columnCount, wordTrigrams);
    overlay.layered = false;
    overlay.seal();
    return overlay;
  }

  /** Rows held in the overlay (written since the build), for tests and measurements. */
  get overlayRows(): number {
    return this.overlay?.rows ?? 0;
  }

  /**
   * Rows each search pays for apart from the build's postings: the overlay's, and the rows of the
   * build set aside (changed or deleted). Neither shrinks until the index is built again.
   */
  get writtenSinceBuild(): number {
    return this.overlayRows + this.shadowed.size;
  }

  /** Forgets a row, if held. */
  delete(rowid: number): void {
    if (!this.all.has(rowid)) return;
    if (this.overlay?.all.has(rowid)) {
      this.all.remove(rowid);
      this.overlay.delete(rowid);
      return;
    }
    this.stage?.flush();
    this.all.remove(rowid);
    this.spaceElsewhere.remove(rowid);
    if (this.odd.delete(rowid)) return;
    const full = this.text.full(rowid);
    if (full !== null) for (const column of full.split('\u0000')) this.postings(column, rowid, false);
    else {
      this.shadowed.add(rowid);
      this.overlay ??= MemorySearchIndex.overlayOf(this.columnCount, this.wordTrigrams);
    }
    this.text.delete(rowid);
  }

  /** Ends the build: shrinks its buffers; rows taken in from now on keep all their text. */
  seal(): void {
    this.stage?.close();
    this.stage = null;
    this.groupsDone(Number.MAX_SAFE_INTEGER);
    this.text.trim();
  }

  /**
   * Writes a sealed index for `MemorySearchIndex.read` (search-snapshot-codec.ts); the caller
   * writes the chunks out before the index changes again.
   */
  write(out: SnapshotWriter): void {
    if (!this.sealed) throw new Error('only a built index can be written');
    out.u32(this.columnCount);
    out.u32(this.wordTrigrams ? 1 : 0);
    this.characters.write(out);
    this.trigrams.write(out);
    this.text.write(out);
    this.words.write(out);
    out.u32(this.odd.size);
    for (const rowid of this.odd) out.f64(rowid);
    this.spaceElsewhere.write(out);
    this.all.write(out);
    this.shadowed.write(out);
    out.u32(this.overlay === null ? 0 : 1);
    this.overlay?.write(out);
  }

  /** A sealed index as `write` wrote it (its arrays are views of the reader's buffer). */
  static read(input: SnapshotReader): MemorySearchIndex {
    const columnCount = input.u32();
    if (columnCount === 0) throw new SnapshotFormatError('a search index has no columns');
    const index = new MemorySearchIndex(columnCount, input.u32() === 1);
    index.stage = null;
    index.group = Number.MAX_SAFE_INTEGER;
    index.characters = CharacterMap.read(input);
    index.trigrams = GramMap.read(input);
    for (const [key] of index.trigrams.entries()) {
      if (typeof key === 'number') index.noteEnding(key, (key >>> 8) & 0xff, key & 0xff);
      else index.noteEnding(key, key.charCodeAt(1), key.charCodeAt(2));
    }
    index.text = TextStore.read(input);
    index.words = TokenVocabulary.read(input);
    for (let count = input.u32(); count > 0; count--) index.odd.add(input.f64());
    index.spaceElsewhere = PostingBitmap.read(input);
    index.all = PostingBitmap.read(input);
    index.shadowed = PostingBitmap.read(input);
    if (input.u32() === 1) {
      index.overlay = MemorySearchIndex.read(input);
      index.overlay.layered = false;
    }
    return index;
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
    this.stage?.flush();
    for (const bitmap of this.characters.values()) bitmap.trimGroups(this.group, group);
    for (const bitmap of this.trigrams.values()) bitmap.trimGroups(this.group, group);
    this.words.trimGroups(this.group, group);
    this.group = group;
  }

  /** Approximate bytes held, for measurements. */
  get bytes(): number {
    this.stage?.flush();
    let bytes = this.text.bytes + this.words.bytes + (this.overlay?.bytes ?? 0);
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
    this.stage?.flush();
    // Without its words or their trigrams the index can tell nothing: every row goes to SQL.
    if (!this.complete) return { hits: new PostingBitmap(), unsure: this.all.toArray() };
    const sets: PostingBitmap[] = [];
    const checked: string[] = [];
    const unsure = [...this.odd];
    for (const keyword of keywords) {
      const folded = foldForSearch(keyword);
      const runs = folded.length > 1 ? wordRuns(folded) : [];
      const exact =
        runs.length === 1 && runs[0].text.length === folded.length
          ? (this.words.containing(folded) ?? this.exactly(folded))
          : (this.pair(folded, runs) ?? this.exactly(folded));
      if (exact) {
        sets.push(exact);
        continue;
      }
      const opening = this.afterSeparator(folded, runs);
      if (opening) {
        const { rows, rest } = opening;
        sets.push(
          rest.size === 0
            ? rows
            : PostingBitmap.or([rows, this.text.confirm(rest, folded, unsure, this.elsewhere(folded))]),
        );
        continue;
      }
      checked.push(folded);
      sets.push(...this.candidates(folded, runs));
    }
    let hits = PostingBitmap.and(sets);
    for (const folded of checked) {
      if (hits.size === 0) break;
      hits = this.text.confirm(hits, folded, unsure, this.elsewhere(folded));
    }
    if (this.overlay !== null) {
      // The shadowed rows as their postings here say they were, then the overlay's rows as they are.
      const now = this.overlay.search(keywords);
      // `hits` is this search's own (`and` and `confirm` make new bitmaps): the shadowed rows in it,
      // usually few, leave it in place, and the overlay's are added into it (a copy of a large
      // `hits` cost more than the rest of the search).
      for (const rowid of PostingBitmap.and([hits, this.shadowed]).toArray()) hits.remove(rowid);
      hits.addAll(now.hits);
      unsure.push(...now.unsure);
    }
    return { hits, unsure };
  }

  /**
   * Which rows the kept text (the first column's, for rows of the build) may miss `folded` in:
   * none with one column; with a space, those with a space in another column; else any.
   */
  private elsewhere(folded: string): ((rowid: number) => boolean) | null {
    if (this.columnCount === 1) return null;
    return folded.includes(' ') ? (rowid: number) => this.spaceElsewhere.has(rowid) : () => true;
  }

  /** A keyword of separators then one word run: see TokenVocabulary.afterSeparator. */
  private afterSeparator(
    folded: string,
    runs: readonly WordRun[],
  ): { rows: PostingBitmap; rest: PostingBitmap } | null {
    if (runs.length !== 1 || !runs[0].before || runs[0].after) return null;
    const word = runs[0].text;
    return this.words.afterSeparator(folded.slice(0, folded.length - word.length), word);
  }

  /**
   * Bitmaps whose intersection holds every row containing `folded` (to be checked against text):
   * the rows of the words its word runs must start, end or be, intersected first (words of a
   * keyword are nearly independent, so that is where the candidates shrink), and its indexed
   * trigrams that reach outside a word run; its characters only when neither says anything.
   */
  private candidates(folded: string, runs: readonly WordRun[]): PostingBitmap[] {
    const sets: PostingBitmap[] = [];
    const words = this.words.candidates(runs);
    const byWords = words !== null && words.length > 0;
    if (byWords) sets.push(PostingBitmap.and(words));
    for (let i = 0; i + 3 <= folded.length; i++) {
      const a = folded.charCodeAt(i);
      const b = folded.charCodeAt(i + 1);
      const c = folded.charCodeAt(i + 2);
      // A trigram inside one word run is in every word that run must start or end.
      if (byWords && isWordUnit(a) && isWordUnit(b) && isWordUnit(c)) continue;
      if (!isGap(b) && !isGap(c)) sets.push(this.trigram(a, b, c));
    }
    if (sets.length > 0) return sets;
    const codes = new Set<number>();
    for (let i = 0; i < folded.length; i++) codes.add(folded.charCodeAt(i));
    for (const code of codes) sets.push(this.characters.get(code) ?? new PostingBitmap());
    return sets;
  }

  /** Rows containing a keyword of two word runs and what separates them, when the pairs can tell. */
  private pair(folded: string, runs: readonly WordRun[]): PostingBitmap | null {
    if (runs.length !== 2 || runs[0].before || runs[1].after) return null;
    const [first, second] = runs;
    return this.words.pairRows(first.text, folded.slice(first.text.length, -second.text.length), second.text);
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
    const stage = add ? this.stage : null;
    this.words.note(column, rowid, add, stage);
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
