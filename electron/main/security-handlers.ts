import type { App, Session, WebContents } from 'electron';
import { decideNavigation, decideWindowOpen, type NavigationDecision } from './security-policy.js';

/** What the handlers need to know and do. */
export interface SecurityContext {
  /** The origin of the editor now shown (it changes when another database opens on another port). */
  appOrigin(): string | null;
  /** Opens an http(s) URL in the OS browser. */
  openExternally(url: string): void;
}

function act(decision: NavigationDecision, url: string, context: SecurityContext): boolean {
  if (decision === 'open-externally') context.openExternally(url);
  return decision === 'allow';
}

/** Guards one web contents: navigation, redirects, new windows and webviews. */
export function guardWebContents(contents: WebContents, context: SecurityContext): void {
  const guardNavigation = (event: { url: string; preventDefault(): void }) => {
    if (!act(decideNavigation(event.url, context.appOrigin()), event.url, context)) event.preventDefault();
  };
  contents.on('will-frame-navigate', guardNavigation);
  contents.on('will-redirect', guardNavigation);
  contents.setWindowOpenHandler(({ url }) => {
    act(decideWindowOpen(url), url, context);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * Applies Electron's security checklist to every web contents the app ever creates (the editor
 * window and anything it could spawn) and refuses every permission request and check.
 */
export function installSecurityHandlers(app: App, session: Session, context: SecurityContext): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, context));
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
