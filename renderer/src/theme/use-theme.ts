import { useCallback, useSyncExternalStore } from 'react';
import { applyTheme, isTheme, rememberTheme, storedTheme, THEME_STORAGE_KEY, type Theme } from './themes.js';

const listeners = new Set<() => void>();
let current: Theme | null = null;

function read(): Theme {
  current ??= storedTheme();
  return current;
}

function show(theme: Theme): void {
  current = theme;
  applyTheme(theme);
  for (const listener of listeners) listener();
}

/** Applies the theme this machine remembers; main.tsx calls it before the first render. */
export function applyStoredTheme(): void {
  applyTheme(read());
}

/** Chooses the editor's theme, shows it at once and remembers it on this machine. */
export function chooseTheme(theme: Theme): void {
  rememberTheme(theme);
  show(theme);
}

// Another window of the editor on this machine chose a theme: follow it.
function onStorage(event: StorageEvent): void {
  if (event.key === THEME_STORAGE_KEY || event.key === null) show(isTheme(event.newValue) ? event.newValue : 'system');
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

/** The editor's theme and the function that chooses another. */
export function useTheme(): { theme: Theme; chooseTheme: (theme: Theme) => void } {
  const theme = useSyncExternalStore(subscribe, read);
  return { theme, chooseTheme: useCallback(chooseTheme, []) };
}
