import { useCallback, useSyncExternalStore } from 'react';

/**
 * The editor's remembered locale choices, per person on this machine (`localStorage`, like the
 * theme and the editor's language): the locale rows are shown and written in, and the source
 * locale of side-by-side translation (empty: side by side is off). Every screen showing one
 * follows a change made on another.
 */

/** What is remembered. */
export type LocaleChoice = 'content' | 'source';

const STORAGE_KEYS: Readonly<Record<LocaleChoice, string>> = {
  content: 'quire.contentLocale',
  source: 'quire.sourceLocale',
};

const listeners = new Set<() => void>();
// Where storage is refused (private windows, policies), choices hold while the editor is open.
const memory = new Map<string, string>();

/** The storage key of a choice for a person (`me.name`; null: the local user, or a token). */
export function choiceKey(choice: LocaleChoice, person: string | null): string {
  return person ? `${STORAGE_KEYS[choice]}.${person}` : STORAGE_KEYS[choice];
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key) ?? memory.get(key) ?? null;
  } catch {
    return memory.get(key) ?? null;
  }
}

function write(key: string, value: string): void {
  memory.set(key, value);
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Kept in memory only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** A remembered choice and how to change it; null until one is made. */
export function useLocaleChoice(choice: LocaleChoice, person: string | null): [string | null, (code: string) => void] {
  const key = choiceKey(choice, person);
  const value = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => null,
  );
  const change = useCallback((code: string) => write(key, code), [key]);
  return [value, change];
}
