/**
 * What the desktop window may load, decided without Electron (electron/main/security-handlers.ts
 * applies it). The window shows only the editor served by Quire's own server; everything else is
 * either handed to the OS browser (http and https links) or refused.
 */

/** What to do with a navigation or a `window.open`. */
export type NavigationDecision = 'allow' | 'open-externally' | 'deny';

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** True for an http(s) URL, the only kind ever handed to the OS browser. */
export function isExternalWebUrl(url: string): boolean {
  const parsed = parse(url);
  return parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.username === '';
}

/** True when `url` is on the editor's origin (scheme, host and port all equal). */
export function isAppUrl(url: string, appOrigin: string | null): boolean {
  if (!appOrigin) return false;
  const parsed = parse(url);
  return parsed !== null && parsed.origin === new URL(appOrigin).origin;
}

/**
 * Decides an in-window navigation (a link, a form, a redirect): the editor's own origin stays in
 * the window; another http(s) page opens in the OS browser; file:, javascript:, data: and custom
 * schemes are refused.
 */
export function decideNavigation(url: string, appOrigin: string | null): NavigationDecision {
  if (isAppUrl(url, appOrigin)) return 'allow';
  return isExternalWebUrl(url) ? 'open-externally' : 'deny';
}

/**
 * Decides a `window.open` or `target=_blank` link: never a new Electron window; http(s) pages,
 * the editor's own included, open in the OS browser.
 */
export function decideWindowOpen(url: string): Exclude<NavigationDecision, 'allow'> {
  return isExternalWebUrl(url) ? 'open-externally' : 'deny';
}
