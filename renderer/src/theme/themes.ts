/** The editor's themes: the system's (light or dark as the system says), or one chosen for good. */
export const THEMES = ['system', 'light', 'dark'] as const;

/** One of the editor's themes. */
export type Theme = (typeof THEMES)[number];

/** Where this machine remembers the chosen theme. */
export const THEME_STORAGE_KEY = 'quire.theme';

/** Whether `value` is one of the editor's themes. */
export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/** The theme chosen on this machine, else the system's (storage may be unavailable or hold anything). */
export function storedTheme(): Theme {
  try {
    const value = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

/** Remembers the chosen theme on this machine; storage that refuses only forgets it. */
export function rememberTheme(theme: Theme): void {
  try {
    if (theme === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private windows and full storage: the choice holds until the window closes.
  }
}

/**
 * Shows the editor in `theme`: `data-theme` on <html> fixes the stylesheet's color-scheme, and its
 * absence leaves the choice to the system (base.css).
 */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}
