import type { ServerResponse } from 'node:http';

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

/** Sets SECURITY_HEADERS on a response (the request listener does, for every answer). */
export function setSecurityHeaders(res: ServerResponse): void {
  for (let i = 0; i < SECURITY_HEADER_LIST.length; i += 2) {
    res.setHeader(SECURITY_HEADER_LIST[i], SECURITY_HEADER_LIST[i + 1]);
  }
}
