import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { NAMESPACES, RESOURCES } from './catalogs.js';
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

if (!i18next.isInitialized) {
  i18next.use(initReactI18next).init({
    resources: RESOURCES,
    lng: initialLanguage(),
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: NAMESPACES,
    defaultNS: 'common',
    // Catalogs are bundled: ready before the first render.
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    returnNull: false,
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

/** Switches the editor's language and remembers it on this machine. */
export async function chooseLanguage(language: Language): Promise<void> {
  rememberLanguage(language);
  await i18next.changeLanguage(language);
}
