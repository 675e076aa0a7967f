import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from './languages.js';

/** One namespace's messages: nested objects of strings. */
export interface Catalog {
  [key: string]: string | Catalog;
}

// Every locales/<language>/<namespace>.json, bundled: the catalogs are small, and a language switch
// then needs no request.
const files = import.meta.glob<Catalog>('./locales/*/*.json', { eager: true, import: 'default' });

/** The catalogs by language and namespace, as i18next takes them. */
export const RESOURCES: Record<Language, Record<string, Catalog>> = Object.fromEntries(
  LANGUAGES.map((language) => [language, {}]),
) as Record<Language, Record<string, Catalog>>;

for (const [path, catalog] of Object.entries(files)) {
  const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match) continue;
  const [, language, namespace] = match;
  const catalogs = RESOURCES[language as Language];
  if (catalogs) catalogs[namespace] = catalog;
}

/** The namespaces, as English has them. */
export const NAMESPACES = Object.keys(RESOURCES[FALLBACK_LANGUAGE]).sort();
