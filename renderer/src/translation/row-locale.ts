import type { ContentRow } from '../../../common/api-contract.js';

/**
 * What a row of a type with translatable fields, read in one locale, says about it: the fields
 * whose value came from another locale (`fallbacks`: field name to that locale's code). Rows of
 * other types have no `fallbacks`.
 */

/** The fields of `row` that fall back, each with the code of the locale its value comes from. */
export function rowFallbacks(row: ContentRow | null | undefined): Readonly<Record<string, string>> {
  const fallbacks: unknown = row?.fallbacks;
  if (fallbacks === null || typeof fallbacks !== 'object' || Array.isArray(fallbacks)) return {};
  return Object.fromEntries(
    Object.entries(fallbacks).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/**
 * The row as the form edits it: a field that falls back is empty (its locale has no value of its
 * own, and the form shows the other locale's as a placeholder), so a save never copies it over.
 */
export function ownValues(row: ContentRow): ContentRow {
  const names = Object.keys(rowFallbacks(row));
  if (names.length === 0) return row;
  const own: ContentRow = { ...row };
  for (const name of names) own[name] = null;
  return own;
}
