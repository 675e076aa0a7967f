import { isIdentifier, isReservedTable, tableFromSlug } from './naming-rules.js';
import { isSlug } from './slug-rules.js';

/** How many numbered slugs (`articles-2`, `articles-3`...) a suggestion tries. */
const MAX_NUMBERED = 50;

/**
 * The slugs to propose, in order, for a new content type whose `slug` another type holds:
 * `my-<slug>` (the user's own version of that type), then `<slug>-2`, `<slug>-3`...; only those
 * that are slugs and whose table is a name a new type may take. The server proposes the first
 * one that is free (`freeTypeSlug`); the type editor the first no loaded type holds.
 */
export function typeSlugCandidates(slug: string): string[] {
  const numbered = Array.from({ length: MAX_NUMBERED }, (_, index) => `${slug}-${index + 2}`);
  return [...(slug.startsWith('my-') ? [] : [`my-${slug}`]), ...numbered].filter((candidate) => {
    const table = tableFromSlug(candidate);
    return isSlug(candidate) && isIdentifier(table) && !isReservedTable(table);
  });
}
