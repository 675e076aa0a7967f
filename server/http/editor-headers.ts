import type { RequestHandler } from 'express';

/**
 * The editor's Content-Security-Policy. The editor is a same-origin Vite build: scripts, styles,
 * fonts and API calls all come from the server itself. Inline styles stay allowed because React
 * style props and Vite-injected CSS use them; inline scripts, `eval`, framing and foreign origins
 * do not, so injected markup in content cannot run script in the editor (or the desktop window).
 */
export const EDITOR_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Adds the editor's security headers to every editor response (its page and its assets). */
export const editorHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', EDITOR_CONTENT_SECURITY_POLICY);
  next();
};
