import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';

/** The label of each locale the localized suites use. */
const LABELS: Readonly<Record<string, string>> = {
  en: 'English',
  de: 'Deutsch',
  'de-AT': 'Deutsch (Österreich)',
  fr: 'Français',
  es: 'Español',
};

/**
 * A test site's locales: English the default and first, then each locale of `chains` in its order
 * with its fallback chain (an empty chain: none, as a document without `fallback` says).
 */
export function localesWith(chains: Readonly<Record<string, readonly string[]>>): LocalesDocument {
  const others = Object.entries(chains).map(([code, fallback]) => ({
    code,
    label: LABELS[code] ?? code,
    ...(fallback.length > 0 ? { fallback: [...fallback] } : {}),
  }));
  return { default: 'en', locales: [{ code: 'en', label: LABELS.en }, ...others] };
}

/** A required title with a value per locale. */
export const LOCALIZED_TITLE: ColumnDescriptor = {
  name: 'title',
  label: 'Title',
  type: 'text',
  required: true,
  localized: true,
};

/** An optional slug per locale, made from the title written there. */
export const LOCALIZED_SLUG: ColumnDescriptor = {
  name: 'slug',
  label: 'Slug',
  type: 'slug',
  required: false,
  parent: 'title',
  localized: true,
};

/** A localized title and slug and a number every locale shares. */
export const TITLE_SLUG_RANK: readonly ColumnDescriptor[] = [
  LOCALIZED_TITLE,
  LOCALIZED_SLUG,
  { name: 'rank', label: 'Rank', type: 'number', required: false },
];
