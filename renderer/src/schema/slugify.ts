import { useEffect, useState } from 'react';
import { isAscii, slugifyWith, type Transliterate } from '../../../common/slug-rules.js';

/**
 * Slugs in the editor, by the server's rules (`common/slug-rules.ts`) with the same transliteration
 * library (any-ascii). Its tables are most of the editor's weight, so they load on first need, as
 * their own chunk: screens that make slugs wait for them (`useTransliteration`), and everything
 * else starts without them.
 */

let transliterate: Transliterate | null = null;
let loading: Promise<void> | null = null;

/** Loads the transliteration tables once; later calls share the first load. */
export function loadTransliteration(): Promise<void> {
  loading ??= import('any-ascii').then((module) => {
    transliterate = module.default;
  });
  return loading;
}

/**
 * The slug of any text, exactly as the server makes it once the tables are loaded. Before that
 * (no screen that makes slugs shows until they are), plain ASCII slugs the same, and other text
 * falls back to dropping accents, and asks for the tables.
 */
export function slugify(text: string): string {
  if (transliterate) return slugifyWith(transliterate, text);
  if (isAscii(text)) return slugifyWith((ascii) => ascii, text);
  void loadTransliteration();
  return slugifyWith((other) => other.normalize('NFKD').replace(/\p{M}/gu, ''), text);
}

/** Whether slugs can be made exactly yet; starts loading the tables when `needed`. */
export function useTransliteration(needed: boolean): boolean {
  const [ready, setReady] = useState(() => !needed || transliterate !== null);
  useEffect(() => {
    if (!needed || transliterate !== null) return;
    let live = true;
    loadTransliteration().then(
      () => live && setReady(true),
      // Offline chunk failures are rare (the editor is served locally); the fallback keeps working.
      () => live && setReady(true),
    );
    return () => {
      live = false;
    };
  }, [needed]);
  return ready || !needed;
}
