/**
 * The one folding of text for search, shared by every engine: SQLite applies it through its
 * `quire_fold` function, PostgreSQL to the text it stores in its search tables. Folding in
 * JavaScript on both is what makes their results the same (PostgreSQL's `lower()` differs from
 * JavaScript's on characters such as `İ` and `ẞ`, and does not normalize).
 */

/** Folds text for case-insensitive, Unicode-aware matching (`ÜBER` matches `über`). */
export function foldForSearch(text: string): string {
  return text.normalize('NFC').toLowerCase();
}
