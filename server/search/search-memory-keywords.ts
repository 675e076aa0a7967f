import { foldForSearch } from './search-folding.js';
import type { GramPostings } from './search-gram-postings.js';
import { PostingBitmap } from './search-posting-bitmap.js';
import type { TokenVocabulary, WordRun } from './search-token-vocabulary.js';

/**
 * The keywords of a MemorySearchIndex (search-memory-index.ts): which ones it answers itself, and
 * the bitmaps one keyword takes from the index's words and grams: its rows when they can tell them
 * exactly, else the rows that may hold it, to be checked against the kept text. `folded` is the
 * keyword folded, `runs` its word runs.
 */

/** Keywords left to SQL: control characters (the boundary mark among them), lone surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point.
const UNANSWERABLE = /[\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether the index answers `keyword` (folded or not) itself. */
export function answerable(keyword: string): boolean {
  const folded = foldForSearch(keyword);
  return folded.length > 0 && !UNANSWERABLE.test(folded);
}

/** Rows containing the keyword, from postings alone, when they can tell (null: to be checked). */
export function exactRows(
  folded: string,
  runs: readonly WordRun[],
  words: TokenVocabulary,
  grams: GramPostings,
): PostingBitmap | null {
  return runs.length === 1 && runs[0].text.length === folded.length
    ? (words.containing(folded) ?? grams.exactly(folded))
    : (pairRows(folded, runs, words) ?? grams.exactly(folded));
}

/** Rows containing a keyword of two word runs and what separates them, when the pairs can tell. */
function pairRows(folded: string, runs: readonly WordRun[], words: TokenVocabulary): PostingBitmap | null {
  if (runs.length !== 2 || runs[0].before || runs[1].after) return null;
  const [first, second] = runs;
  return words.pairRows(first.text, folded.slice(first.text.length, -second.text.length), second.text);
}

/** A keyword of separators then one word run: see TokenVocabulary.afterSeparator. */
export function afterSeparator(
  folded: string,
  runs: readonly WordRun[],
  words: TokenVocabulary,
): { rows: PostingBitmap; rest: PostingBitmap } | null {
  if (runs.length !== 1 || !runs[0].before || runs[0].after) return null;
  const word = runs[0].text;
  return words.afterSeparator(folded.slice(0, folded.length - word.length), word);
}

/**
 * Bitmaps whose intersection holds every row containing the keyword (to be checked against text):
 * the rows of the words its word runs must start, end or be, intersected first (words of a
 * keyword are nearly independent, so that is where the candidates shrink), and its indexed
 * trigrams that reach outside a word run; its characters only when neither says anything.
 */
export function candidates(
  folded: string,
  runs: readonly WordRun[],
  words: TokenVocabulary,
  grams: GramPostings,
): PostingBitmap[] {
  const rows = words.candidates(runs);
  return grams.candidates(folded, rows !== null && rows.length > 0 ? PostingBitmap.and(rows) : null);
}
