/** Longest slug kept; longer inputs are cut at a word boundary where possible. */
export const MAX_SLUG_LENGTH = 200;

/** Turns text into ASCII (`Über` -> `Uber`); the server and the editor pass the same library's function. */
export type Transliterate = (text: string) => string;

/**
 * Turns any text into a URL slug: transliterated to ASCII (`Über Café` -> `uber-cafe`), lower-case,
 * runs of anything but letters and digits collapsed to one hyphen, no hyphen at either end.
 * Returns '' when nothing sluggable is left (only punctuation, say).
 */
export function slugifyWith(transliterate: Transliterate, text: string): string {
  const slug = transliterate(text.normalize('NFC'))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= MAX_SLUG_LENGTH) return slug;
  const cut = slug.slice(0, MAX_SLUG_LENGTH);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen > MAX_SLUG_LENGTH / 2 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '');
}

/** Whether text needs no transliteration (plain ASCII slugs the same with any transliterator). */
export function isAscii(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range is the point.
  return /^[\u0000-\u007f]*$/.test(text);
}

/** Whether a string already has the shape of a slug this server produces. */
export function isSlug(value: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value) && value.length <= MAX_SLUG_LENGTH;
}

/**
 * The first free slug for `base` given a test for taken slugs: `base`, then `base-2`, `base-3`...
 * The suffix search is bounded by how many rows share the base, so it always ends.
 */
export function uniqueSlug(base: string, isTaken: (candidate: string) => boolean): string {
  for (let n = 1; ; n++) {
    const candidate = slugWithSuffix(base, n);
    if (!isTaken(candidate)) return candidate;
  }
}

/** The n-th candidate for `base`: `base` itself for 1, then `base-2`, `base-3`... (cut to fit). */
export function slugWithSuffix(base: string, n: number): string {
  if (n === 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
}
