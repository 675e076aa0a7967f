import { AppError } from '../errors/app-error.js';
import { isOwnOrigin } from './origin-guard.js';
import { ANSWERED, addVary, type Guard } from './request-guard.js';

/** Methods a `--cors-origin` page may use: reading only. */
const CORS_METHODS = ['GET', 'HEAD'];
/** Request headers a `--cors-origin` page may send (the token, when one is required). */
const CORS_HEADERS = new Set(['authorization']);
/** Response headers such a page may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'Server-Timing';

/** What the CORS policy allows. */
export interface CorsPolicyOptions {
  /** Normalized origins allowed to read. */
  corsOrigins: readonly string[];
}

/**
 * CORS for the origins named with `--cors-origin`, and only for reading: their responses carry
 * `Access-Control-Allow-Origin` with that exact origin, and their preflights for GET/HEAD are
 * answered. No other origin ever gets `Access-Control-Allow-Origin`; a preflight from one, or for
 * a write, is a 403. Same-origin requests need none of this and pass untouched.
 */
export function corsPolicy({ corsOrigins }: CorsPolicyOptions): Guard {
  const allowed = new Set(corsOrigins);
  return (req, res) => {
    if (allowed.size > 0) addVary(res, 'Origin');
    const origin = req.headers.origin;
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (origin === undefined || isOwnOrigin(origin, req)) return null;
    if (!allowed.has(origin)) {
      return preflight ? new AppError('forbidden', 'Cross-origin requests are not allowed') : null;
    }
    if (!preflight) {
      // Writes from these origins are refused by the origin guard; only reads get the grant.
      if (CORS_METHODS.includes(req.method ?? '')) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      }
      return null;
    }

    const method = String(req.headers['access-control-request-method']).toUpperCase();
    const headers = String(req.headers['access-control-request-headers'] ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean);
    const refusedHeader = headers.find((name) => !CORS_HEADERS.has(name));
    if (!CORS_METHODS.includes(method) || refusedHeader !== undefined) {
      return new AppError(
        'forbidden',
        refusedHeader === undefined
          ? `Cross-origin ${method} is not allowed; other origins may only read`
          : `Cross-origin requests may not send the header ${refusedHeader}`,
      );
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', CORS_METHODS.join(', '));
    if (headers.length > 0) res.setHeader('Access-Control-Allow-Headers', headers.join(', '));
    res.setHeader('Access-Control-Max-Age', '600');
    res.statusCode = 204;
    res.end();
    return ANSWERED;
  };
}
