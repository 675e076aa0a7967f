/**
 * The site's languages: one tree of pages per locale Quire lists (`GET /api/locales`, or the
 * `locales` of an export's index), the default locale's at `/` and each other's at `/<code>/`. A
 * type with localized columns is read with `?locale=all` (each such field an object of every
 * locale's own value); `inLocale` picks each field's value for one locale as Quire does: the
 * locale's own value, else the first of its fallback chain that has one. A site whose locales were
 * never set has one locale and one tree, at `/`, as before.
 */
import { exportDir, exportIndex, getJson } from './quire-source';
import type { ContentRow, ContentTypeSummary, LocalesDocument } from './quire-types';

/** One tree of the site: the locale its rows are read in and where its pages live. */
export interface SiteLocale {
  code: string;
  /** The language of its pages (`<html lang>`, `hreflang`, dates and numbers). */
  lang: string;
  /** What its addresses start with: `''` for the default locale, `/de` for the others. */
  prefix: string;
  /** The locales a missing value is taken from, in order. */
  fallback: string[];
}

/** A row as one locale reads it, with the localized fields that came from another locale. */
export interface LocaleRow {
  row: ContentRow;
  /** Each field whose value came from another locale, with that locale's code. */
  fallbacks: Record<string, string>;
}

/** A site's languages before any are set: one, English. */
const ONE_LOCALE: LocalesDocument = { default: 'en', locales: [{ code: 'en', label: 'English' }] };

let read: Promise<SiteLocale[]> | undefined;

/**
 * The site's locales: the server's, or those an export's index records (none when no type it holds
 * is localized: one locale). An export written in one locale (`quire export --locale de`) has that
 * tree only.
 */
async function localesDocument(): Promise<LocalesDocument> {
  if (!exportDir) return getJson<LocalesDocument>('/locales');
  const index = await exportIndex();
  const document = index.locales ?? ONE_LOCALE;
  const only = document.locales.filter((locale) => locale.code === index.locale);
  return only.length > 0 ? { ...document, locales: only } : document;
}

/**
 * The trees the site builds, the default locale's first. QUIRE_LOCALE names the language of the
 * default tree (`fr`, `de-CH`); by default it is the default locale's code.
 */
export function siteLocales(): Promise<SiteLocale[]> {
  read ??= (async () => {
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
  })();
  return read;
}

/** Whether a value holds nothing a page shows. */
const isBlank = (value: unknown): boolean =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** A `?locale=all` row as `locale` reads it: each localized field its own value, else its chain's first. */
export function inLocale(type: ContentTypeSummary, row: ContentRow, locale: SiteLocale): LocaleRow {
  const resolved: Record<string, unknown> = { ...row };
  const fallbacks: Record<string, string> = {};
  for (const column of type.columns) {
    const values = row[column.name];
    if (!column.localized || values === null || typeof values !== 'object' || Array.isArray(values)) continue;
    const own = values as Record<string, unknown>;
    const from = [locale.code, ...locale.fallback].find((code) => !isBlank(own[code]));
    resolved[column.name] = from === undefined ? null : own[from];
    if (from !== undefined && from !== locale.code) fallbacks[column.name] = from;
  }
  return { row: resolved as ContentRow, fallbacks };
}
