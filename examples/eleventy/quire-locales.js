/**
 * The site's languages: one tree of pages per locale Quire lists (`GET /api/locales`, or the
 * `locales` of an export's index), the default locale's at `/` and each other's at `/<code>/`. A
 * type with localized columns is read with `?locale=all` (each such field an object of every
 * locale's own value); `inLocale` picks each field's value for one locale as Quire does: the
 * locale's own value, else the first of its fallback chain that has one. A site whose locales were
 * never set has one locale and one tree, at `/`, as before.
 */
import { exportDir, exportIndex, getJson } from './quire-source.js';

/** A site's languages before any are set: one, English. */
const ONE_LOCALE = { default: 'en', locales: [{ code: 'en', label: 'English' }] };

/**
 * The site's locales: the server's, or those an export's index records (none when no type it holds
 * is localized: one locale). An export written in one locale (`quire export --locale de`) has that
 * tree only.
 */
async function localesDocument() {
  if (!exportDir) return getJson('/locales');
  const index = await exportIndex();
  const document = index.locales ?? ONE_LOCALE;
  const only = document.locales.filter((locale) => locale.code === index.locale);
  return only.length > 0 ? { ...document, locales: only } : document;
}

/**
 * The trees the site builds, the default locale's first: each `{ code, lang, prefix, fallback }`,
 * `lang` the language of its pages (`<html lang>`, `hreflang`, dates and numbers) and `prefix` what
 * its addresses start with (`''`, `/de`). QUIRE_LOCALE names the default tree's language (`fr`,
 * `de-CH`); by default it is the default locale's code.
 */
export async function siteLocales() {
  const document = await localesDocument();
  const ordered = [
    ...document.locales.filter((locale) => locale.code === document.default),
    ...document.locales.filter((locale) => locale.code !== document.default),
  ];
  return ordered.map((locale) => {
    const isDefault = locale.code === document.default;
    return {
      code: locale.code,
      lang: isDefault ? process.env.QUIRE_LOCALE || locale.code : locale.code,
      prefix: isDefault ? '' : `/${locale.code}`,
      fallback: locale.fallback ?? [],
    };
  });
}

/** Whether a value holds nothing a page shows. */
const isBlank = (value) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * A `?locale=all` row as `locale` reads it: `{ row, fallbacks }`, each localized field its own
 * value, else its chain's first, and `fallbacks` naming the fields taken from another locale.
 */
export function inLocale(type, row, locale) {
  const resolved = { ...row };
  const fallbacks = {};
  for (const column of type.columns) {
    const values = row[column.name];
    if (!column.localized || values === null || typeof values !== 'object' || Array.isArray(values)) continue;
    const from = [locale.code, ...locale.fallback].find((code) => !isBlank(values[code]));
    resolved[column.name] = from === undefined ? null : values[from];
    if (from !== undefined && from !== locale.code) fallbacks[column.name] = from;
  }
  return { row: resolved, fallbacks };
}
