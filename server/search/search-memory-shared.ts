import type { PostingBitmap } from './search-posting-bitmap.js';

/**
 * What in-memory searches share (search-answers.ts and the engines' stores): a table's recent
 * answers, and a bounded wait for an index's build.
 */

/** Answers kept per table (a list request asks for its page and its count: one search). */
const MAX_ANSWERS = 32;

/**
 * The rows matching `keywords`: a recent answer from `answers`, else `search`'s, kept (oldest
 * dropped first) unless the index changed while it ran (`version` differs before and after:
 * rows the index was unsure of were checked by SQL at a later state).
 */
export async function rememberedMatches(
  answers: Map<string, PostingBitmap>,
  keywords: readonly string[],
  version: () => unknown,
  search: () => Promise<PostingBitmap>,
): Promise<PostingBitmap> {
  const key = JSON.stringify(keywords);
  const known = answers.get(key);
  if (known) return known;
  const before = version();
  const hits = await search();
  if (version() !== before) return hits;
  if (answers.size >= MAX_ANSWERS) answers.delete(answers.keys().next().value as string);
  answers.set(key, hits);
  return hits;
}

/** `work`'s value, or `late` once `ms` have passed (a guard against a build that hangs). */
export async function within<T>(work: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
