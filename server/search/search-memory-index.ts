import { foldForSearch } from './search-folding.js';
import { GramPostings } from './search-gram-postings.js';
import { afterSeparator, candidates, exactRows } from './search-memory-keywords.js';
import { PostingBitmap } from './search-posting-bitmap.js';
import { PostingStage } from './search-posting-stage.js';
import { SnapshotFormatError, type SnapshotReader, type SnapshotWriter } from './search-snapshot-codec.js';
import { TextStore } from './search-text-store.js';
import { TokenVocabulary, wordRuns } from './search-token-vocabulary.js';

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
 * - A keyword of 1 to 3 characters is answered exactly from the postings of characters and
 *   trigrams, unless it needs a trigram left out of them; that one, and any longer keyword the
 *   words do not answer, is the intersection of bitmaps whose rows are then checked against the
 *   stored folded text (search-gram-postings.ts, search-memory-keywords.ts).
 * - Keywords with control characters (the boundary mark among them) or lone surrogates are left to
 *   SQL (`answerable`, search-memory-keywords.ts): they are rare, and their byte form in SQLite is
 *   not worth mirroring.
 * - Rows whose search columns hold something other than text or null (SQLite's dynamic types: a
 *   number's text form is SQLite's to decide) are kept apart in `odd`, for SQL to check.
 */

/** Rows matching a search, and rows SQL must still check (odd ones, unconfirmed candidates). */
export interface MemoryHits {
  hits: PostingBitmap;
  unsure: number[];
}

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
  private grams: GramPostings;
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
   * them out of every bitmap would cost a walk of all of them per row (paid by the next search or
   * the save at a clean stop). Searches leave them out of what the
   * postings say and take them from `overlay` instead.
   */
  private shadowed = new PostingBitmap();
  /**
   * An index of the rows written since the build (shadowed rows with their new values, and new
   * rows), with all their text; null until one is. The build's postings then never change: adding
   * a row to a bitmap read from a saved index would make objects of all its groups, where the
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
    this.grams = new GramPostings(wordTrigrams);
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
    this.grams.write(out);
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
    index.grams = GramPostings.read(input, index.wordTrigrams);
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
    this.grams.trimGroups(this.group, group);
    this.words.trimGroups(this.group, group);
    this.group = group;
  }

  /** Approximate bytes held, for measurements. */
  get bytes(): number {
    this.stage?.flush();
    return this.text.bytes + this.words.bytes + (this.overlay?.bytes ?? 0) + this.grams.bytes;
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
      const exact = exactRows(folded, runs, this.words, this.grams);
      if (exact) {
        sets.push(exact);
        continue;
      }
      const opening = afterSeparator(folded, runs, this.words);
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
      sets.push(...candidates(folded, runs, this.words, this.grams));
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

  /**
   * Adds (or removes) `rowid` to the postings of every word, character and padded trigram of
   * `column`.
   */
  private postings(column: string, rowid: number, add: boolean): void {
    const stage = add ? this.stage : null;
    this.words.note(column, rowid, add, stage);
    this.grams.note(column, rowid, add, stage);
  }
}
