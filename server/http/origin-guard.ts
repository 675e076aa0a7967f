import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors/app-error.js';

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
export function isOwnOrigin(origin: string, req: Request): boolean {
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

/** What the origin guard accepts. */
export interface OriginGuardOptions {
  /** Normalized origins allowed to read (GET, HEAD, OPTIONS) cross-origin. */
  corsOrigins: readonly string[];
}

/**
 * Writes: a foreign `Origin` (including `null`) or `Sec-Fetch-Site: cross-site` is a 403.
 * Reads: a foreign `Origin` not named by `--cors-origin` is a 403 too (defence in depth: the
 * browser would hide the answer anyway). No `Origin` passes; beyond loopback the token decides.
 */
export function originGuard({ corsOrigins }: OriginGuardOptions): RequestHandler {
  const readers = new Set(corsOrigins);
  return (req, _res, next) => {
    const write = !SAFE_METHODS.has(req.method);
    if (write && req.headers['sec-fetch-site'] === 'cross-site') {
      return next(new AppError('forbidden', 'Cross-site requests may not change content'));
    }
    const origin = req.headers.origin;
    if (origin === undefined || isOwnOrigin(origin, req)) return next();
    if (!write && readers.has(origin)) return next();
    next(
      new AppError(
        'forbidden',
        write
          ? `Requests from ${nameOf(origin)} may not change content; only the editor served by this server can`
          : `Requests from ${nameOf(origin)} are not allowed; start Quire with --cors-origin to let that origin read`,
      ),
    );
  };
}

function nameOf(origin: string): string {
  return origin === 'null' ? 'a page with a null origin' : /^[\x21-\x7e]{1,200}$/.test(origin) ? origin : 'that origin';
}
