import type { Catalog } from './catalog-files.js';
import { LANGUAGES, type Language } from './languages.js';
import english from './locales/en.js';

export type { Catalog } from './catalog-files.js';

/**
 * English is bundled with the editor (the fallback every other language leans on); each other
 * language is its own chunk, loaded when chosen, so opening the editor costs one language.
 */
const LOADERS: Record<Language, () => Promise<Record<string, Catalog>>> = {
  en: async () => english,
  de: async () => (await import('./locales/de.js')).default,
  fr: async () => (await import('./locales/fr.js')).default,
  es: async () => (await import('./locales/es.js')).default,
};

/** The English catalogs by namespace. */
export const ENGLISH: Record<string, Catalog> = english;

/** The namespaces, as English has them. */
export const NAMESPACES = Object.keys(english).sort();

/** A language's catalogs by namespace. */
export function loadCatalogs(language: Language): Promise<Record<string, Catalog>> {
  return LOADERS[language]();
}

/** Every language's catalogs (for the checks that compare them). */
export async function loadAllCatalogs(): Promise<Record<Language, Record<string, Catalog>>> {
  const loaded = await Promise.all(LANGUAGES.map(async (language) => [language, await loadCatalogs(language)]));
  return Object.fromEntries(loaded) as Record<Language, Record<string, Catalog>>;
}
