import type { RequestHandler } from 'express';

/**
 * Headers every response carries, refusals included: no MIME sniffing (a JSON answer never runs
 * as script or style), no reading by other origins' `<script>`/`<img>` tags, no framing of the
 * editor by another page (clickjacking). The editor's CSP is added by `editor-headers.ts`.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/** SECURITY_HEADERS as a `writeHead` list: name, value, name, value. */
export const SECURITY_HEADER_LIST: readonly string[] = Object.entries(SECURITY_HEADERS).flat();

/** Sets SECURITY_HEADERS on every response. */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.set(SECURITY_HEADERS);
  next();
};
