import { EDITOR_LANGUAGES, type EditorLanguage, isEditorLanguage } from '../../../common/editor-language-rules.js';

/** The languages the editor speaks (the server keeps an account's choice by the same list). */
export const LANGUAGES = EDITOR_LANGUAGES;

/** One of the editor's languages. */
export type Language = EditorLanguage;

/** The language nothing else chooses, and the one every catalog is checked against. */
export const FALLBACK_LANGUAGE: Language = 'en';

/** Each language by its own name, as the picker lists it (the same in every language). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
};

/** Where this machine remembers the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'quire.language';

/** Whether `value` is one of the editor's languages. */
export const isLanguage: (value: unknown) => value is Language = isEditorLanguage;

/**
 * The first of the browser's preferred languages the editor speaks (`de-AT` counts as `de`), else
 * English.
 */
export function browserLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return FALLBACK_LANGUAGE;
}

/** The language chosen on this machine, if any (storage may be unavailable or hold anything). */
export function storedLanguage(): Language | null {
  try {
    const value = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/** Remembers the chosen language on this machine; storage that refuses only forgets it. */
export function rememberLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private windows and full storage: the choice holds until the window closes.
  }
}

/** The language to start in: the one chosen on this machine, else the browser's, else English. */
export function initialLanguage(): Language {
  const preferred =
    typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return storedLanguage() ?? browserLanguage(preferred.filter(Boolean));
}
