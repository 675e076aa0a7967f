import i18next, { type FlatNamespace } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { loadCatalog, OPENING_CATALOGS, OPENING_NAMESPACES } from './catalogs.js';
import {
  FALLBACK_LANGUAGE,
  initialLanguage,
  isLanguage,
  LANGUAGES,
  type Language,
  rememberLanguage,
} from './languages.js';

/** Keeps `<html lang>` on the editor's language, for screen readers, hyphenation and spell checking. */
function markDocument(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * Keys asked for that no catalog has (`namespace:key`), in the order first asked: the editor's
 * browser tests read them from the page (`window.quireMissingKeys`) and fail on any.
 */
export const missingKeys: string[] = [];

/** Notes a key no catalog has, once. */
function noteMissing(namespace: string, key: string): void {
  const name = `${namespace}:${key}`;
  if (!missingKeys.includes(name)) missingKeys.push(name);
}

if (typeof window !== 'undefined') {
  (window as Window & { quireMissingKeys?: readonly string[] }).quireMissingKeys = missingKeys;
}

if (!i18next.isInitialized) {
  // Each catalog the bundle does not hold is a chunk, loaded as a language or screen needs it. The
  // backend takes a module's `default` when there is one, and a catalog may have a key `default`
  // (pages-languages does): it gets the catalog as a module's default.
  i18next
    .use(
      resourcesToBackend(async (language: string, namespace: string) => ({
        default: await loadCatalog(language, namespace),
      })),
    )
    .use(initReactI18next)
    .init({
      // Copies: i18next adds to the objects it is given, namespaces as they load.
      resources: { [FALLBACK_LANGUAGE]: { ...OPENING_CATALOGS } },
      partialBundledLanguages: true,
      lng: FALLBACK_LANGUAGE,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      // A screen's own namespaces load with its chunk (`lazyNamed`); a namespace that is not loaded
      // yet makes `useT` suspend, so the screen shows its loading state, never raw keys.
      ns: [...OPENING_NAMESPACES],
      defaultNS: 'common',
      // English's opening catalogs are bundled: ready before the first render.
      initAsync: false,
      // React escapes what it renders.
      interpolation: { escapeValue: false },
      returnNull: false,
      // The backend only reads: a missing key is noted for the checks (see missingKeys).
      saveMissing: true,
      missingKeyHandler: (_languages, namespace, key) => noteMissing(namespace, key),
    });
  markDocument(i18next.language);
  i18next.on('languageChanged', markDocument);
}

/** The editor's i18next instance (react-i18next's hooks use it). */
export const i18n = i18next;

/** The language the editor speaks now. */
export function currentLanguage(): Language {
  const language = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(language) ? language : FALLBACK_LANGUAGE;
}

/** Loads a language's catalogs of the namespaces loaded so far, unless they are there. */
export function ensureLanguage(language: Language): Promise<void> {
  return i18next.loadLanguages(language);
}

/** Loads namespaces in the editor's language (and English, its fallback), unless they are there. */
export function ensureNamespaces(namespaces: readonly FlatNamespace[]): Promise<void> {
  return namespaces.length === 0 ? Promise.resolve() : i18next.loadNamespaces([...namespaces]);
}

/**
 * Switches the editor's language; i18next first loads, in that language, every namespace loaded
 * so far, so a screen never shows a message in the old language beside the new.
 */
async function switchTo(language: Language): Promise<void> {
  await i18next.changeLanguage(language);
}

/**
 * Settles when the language this machine starts in is loaded and chosen: the editor renders after
 * it, so nothing shows in English first.
 */
export const languageReady: Promise<void> = switchTo(initialLanguage()).catch(() => undefined);

/** Where a chosen language is kept besides this machine (the signed-in account), while there is one. */
let keeper: ((language: Language) => Promise<unknown>) | null = null;

/** Keeps each language chosen from now on with `keep` as well (null: on this machine only). */
export function keepChosenLanguageWith(keep: ((language: Language) => Promise<unknown>) | null): void {
  keeper = keep;
}

/** Switches the editor's language and remembers it on this machine (no saving anywhere else). */
export async function applyLanguage(language: Language): Promise<void> {
  rememberLanguage(language);
  await switchTo(language);
}

/**
 * Switches the editor's language and remembers it on this machine and, signed in, on the account.
 * An account that cannot keep it now (the server away) leaves the choice on this machine.
 */
export async function chooseLanguage(language: Language): Promise<void> {
  await applyLanguage(language);
  await keeper?.(language).catch(() => undefined);
}
