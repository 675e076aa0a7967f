import type { RequestHandler } from 'express';
import { AppError } from '../errors/app-error.js';
import { checkFormPairs, MAX_QUERY_PARAMETERS } from './untrusted-input.js';

/**
 * Checks the request target before routing: an origin-form path (`/api/...`; absolute-form
 * `http://elsewhere/` and `*` are proxy and server-wide forms Quire does not serve), valid
 * percent-encoded UTF-8 in the path and query, no NUL, no `__proto__`-like query names and at
 * most MAX_QUERY_PARAMETERS parameters. Node's HTTP parser has already refused raw control and
 * non-ASCII bytes (see `server.ts`, clientError).
 */
export const requestTargetGuard: RequestHandler = (req, _res, next) => {
  const url = req.url;
  if (!url.startsWith('/') || url.startsWith('//')) {
    return next(new AppError('bad_request', 'The request target must be a path starting with a single /'));
  }
  const cut = url.indexOf('?');
  const path = cut < 0 ? url : url.slice(0, cut);
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(path);
  } catch {
    return next(new AppError('bad_request', 'The request path has malformed percent-encoding'));
  }
  if (decodedPath.includes('\u0000')) return next(new AppError('bad_request', 'The request path contains NUL'));
  next(cut < 0 ? undefined : (checkFormPairs(url.slice(cut + 1), 'query string', MAX_QUERY_PARAMETERS) ?? undefined));
};
