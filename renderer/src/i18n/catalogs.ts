import { FALLBACK_LANGUAGE, isLanguage, LANGUAGES, type Language } from './languages.js';
import englishOpening from './locales/en-opening.js';

/** One namespace's messages: nested objects of strings. */
export interface Catalog {
  [key: string]: string | Catalog;
}

/** A language's catalog loaders by path (`./xx/<namespace>.json`), each file a chunk of the built editor. */
export type CatalogFiles = Record<string, () => Promise<unknown>>;

/** The namespace a catalog file holds. */
const namespaceOf = (path: string) => /([^/]+)\.json$/.exec(path)?.[1] ?? path;

/**
 * Each language's catalog loaders, a chunk loaded when the language or a screen first needs one,
 * so opening the editor carries none of them.
 */
const FILES: Record<Language, () => Promise<CatalogFiles>> = {
  en: async () => (await import('./locales/en.js')).default,
  de: async () => (await import('./locales/de.js')).default,
  fr: async () => (await import('./locales/fr.js')).default,
  es: async () => (await import('./locales/es.js')).default,
};

/** The English catalogs bundled with the editor, by namespace. */
export const OPENING_CATALOGS: Record<string, Catalog> = Object.fromEntries(
  Object.entries(englishOpening).map(([path, catalog]) => [namespaceOf(path), catalog as Catalog]),
);

/**
 * The namespaces any screen may use, loaded in the editor's language before its first render;
 * every other namespace loads with the screen that uses it (`lazyNamed`).
 */
export const OPENING_NAMESPACES = Object.keys(OPENING_CATALOGS).sort();

/** One namespace of one language (what the i18next backend reads). */
export async function loadCatalog(language: string, namespace: string): Promise<Catalog> {
  if (language === FALLBACK_LANGUAGE && namespace in OPENING_CATALOGS) return OPENING_CATALOGS[namespace];
  const load = isLanguage(language) ? (await FILES[language]())[`./${language}/${namespace}.json`] : undefined;
  if (!load) throw new Error(`The editor has no catalog ${language}/${namespace}`);
  return (await load()) as Catalog;
}

/** A language's namespaces, as its files have them (English's include the ones bundled). */
export async function namespacesOf(language: Language): Promise<string[]> {
  const files = Object.keys(await FILES[language]()).map(namespaceOf);
  if (language !== FALLBACK_LANGUAGE) return files.sort();
  const bundledTwice = files.filter((namespace) => OPENING_NAMESPACES.includes(namespace));
  if (bundledTwice.length > 0) throw new Error(`en.ts loads bundled catalogs: ${bundledTwice.join(', ')}`);
  return [...OPENING_NAMESPACES, ...files].sort();
}

/** A language's catalogs by namespace (for the checks that compare them). */
export async function loadCatalogs(language: Language): Promise<Record<string, Catalog>> {
  const namespaces = await namespacesOf(language);
  const loaded = await Promise.all(
    namespaces.map(async (namespace) => [namespace, await loadCatalog(language, namespace)]),
  );
  return Object.fromEntries(loaded);
}

/** Every language's catalogs (for the checks that compare them). */
export async function loadAllCatalogs(): Promise<Record<Language, Record<string, Catalog>>> {
  const loaded = await Promise.all(LANGUAGES.map(async (language) => [language, await loadCatalogs(language)]));
  return Object.fromEntries(loaded) as Record<Language, Record<string, Catalog>>;
}
