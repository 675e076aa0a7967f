import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors/app-error.js';
import type { Guard } from './request-guard.js';

/**
 * Refuses requests a foreign web page made: a form POST is a CORS "simple request" that reaches
 * the server without a preflight, so the server itself must check who is asking. Browsers send
 * `Origin` on every state-changing request and on cross-origin reads; requests without it come
 * from non-browser clients (curl, build scripts).
 */

/** Methods that cannot change anything; every other method counts as a write. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Normalizes an origin given on the command line (`http://localhost:3000/` -> `http://localhost:3000`);
 * throws with a one-line reason when it is not an http(s) origin. `null` and `*` are refused:
 * `null` is the origin of every sandboxed frame and file page, `*` is every page.
 */
export function normalizeOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${JSON.stringify(value)} is not an origin like http://localhost:3000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${JSON.stringify(value)} is not an http or https origin`);
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(`${JSON.stringify(value)} must be an origin only (scheme, host and port, no path)`);
  }
  return url.origin;
}

/**
 * Whether `origin` is the server's own, as the request addressed it: `http(s)://` + its Host
 * (already checked by the host guard, so a page with that origin is this server's editor).
 */
export function isOwnOrigin(origin: string, req: IncomingMessage): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) return false;
  try {
    return new URL(`${url.protocol}//${req.headers.host ?? ''}`).host === url.host;
  } catch {
    return false;
  }
}

/**
 * `Sec-Fetch-Site` values of requests the server's own pages or the user made (a typed URL, a
 * bookmark). `same-site` is not one: another port of the same host name (a dev server on
 * localhost:3000) is another page; an unknown future value is treated as foreign too.
 */
const OWN_SITES: ReadonlySet<string> = new Set(['same-origin', 'none']);

/**
 * Whether a browser says another page made the request. Without `Sec-Fetch-Site` the client is
 * not a browser (curl, scripts, a static-site build in Node) or an old one, and the Origin check
 * and the token are what stand.
 */
function fromForeignPage(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  return site !== undefined && !OWN_SITES.has(site);
}

/**
 * Whether the request loads a page in a tab or window of its own (the user followed a link to
 * the editor or to an API address). Frames, `<object>`, `<img>`, `<script>` and `fetch` are not:
 * those let the foreign page time the answer (XS-Search) or make the server work for it.
 */
function isTopLevelNavigation(req: IncomingMessage): boolean {
  return req.headers['sec-fetch-mode'] === 'navigate' && req.headers['sec-fetch-dest'] === 'document';
}

/** What the origin guard accepts. */
export interface OriginGuardOptions {
  /** Normalized origins allowed to read (GET, HEAD, OPTIONS) cross-origin. */
  corsOrigins: readonly string[];
}

/**
 * Writes: a foreign `Origin` (including `null`) or a foreign `Sec-Fetch-Site` is a 403.
 * Reads: a foreign `Origin` not named by `--cors-origin` is a 403, and so is a fetch another
 * page made (`Sec-Fetch-Site: cross-site` or `same-site`: an `<img>`, `<script>`, frame or
 * `fetch`), unless it names an allowed origin or is a top-level navigation. The browser would
 * hide such answers anyway; refusing them before any work stops foreign pages from timing
 * searches and from loading the server. This covers `/media` too: `Cross-Origin-Resource-Policy`
 * already keeps hot-linked images from showing, and an allowed origin may still load them with
 * `<img crossorigin>`, which sends its Origin. No `Origin` and no `Sec-Fetch-Site` passes;
 * beyond loopback the token decides.
 */
export function originGuard({ corsOrigins }: OriginGuardOptions): Guard {
  const readers = new Set(corsOrigins);
  return (req) => {
    const write = !SAFE_METHODS.has(req.method ?? 'GET');
    const origin = req.headers.origin;
    if (fromForeignPage(req)) {
      if (write) return new AppError('forbidden', 'Requests from other pages may not change content');
      const allowedReader = origin !== undefined && readers.has(origin);
      if (!allowedReader && !isTopLevelNavigation(req)) {
        return new AppError(
          'forbidden',
          'Pages of other origins (other sites, or other ports of this host) may not load from this server; start Quire with --cors-origin to let one read with fetch()',
        );
      }
    }
    if (origin === undefined || isOwnOrigin(origin, req)) return null;
    if (!write && readers.has(origin)) return null;
    return new AppError(
      'forbidden',
      write
        ? `Requests from ${nameOf(origin)} may not change content; only the editor served by this server can`
        : `Requests from ${nameOf(origin)} are not allowed; start Quire with --cors-origin to let that origin read`,
    );
  };
}

function nameOf(origin: string): string {
  return origin === 'null' ? 'a page with a null origin' : /^[\x21-\x7e]{1,200}$/.test(origin) ? origin : 'that origin';
}
