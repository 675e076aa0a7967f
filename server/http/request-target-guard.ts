import { AppError } from '../errors/app-error.js';
import type { Guard } from './request-guard.js';
import { checkFormPairs, MAX_QUERY_PARAMETERS } from './untrusted-input.js';

/** A raw `.` or `..` segment: `/./`, `/../`, or one ending the path. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
/** A percent-encoded `/` or `\`: a separator the router would not see as one. */
const ENCODED_SEPARATOR = /%(?:2f|5c)/i;
/** A control character (C0 or DEL), as a decoded path segment may hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Why `url`, a request target, is not in normal form, or null when it is: then every parser reads
 * the same path from it (Express's router, the guards, the row routes), so what is authorized is
 * what is routed. Not normal: a fragment (`#`; a client never sends one), a `\` in the path (some
 * parsers turn it into `/`), a `.` or `..` segment (raw or percent-encoded), an empty segment
 * (`//`), a percent-encoded `/` or `\`, and a control character (raw or percent-encoded) in the path.
 * A malformed percent-encoding is answered by the request-target guard on its own.
 */
export function targetNotNormal(url: string): string | null {
  if (url.includes('#')) return 'holds a fragment (#)';
  const cut = url.indexOf('?');
  const path = cut < 0 ? url : url.slice(0, cut);
  if (path.includes('\\')) return 'holds a backslash in its path';
  if (path.includes('//')) return 'holds an empty path segment (//)';
  if (DOT_SEGMENT.test(path)) return 'holds a . or .. path segment';
  if (CONTROL.test(path)) return 'holds a control character in its path';
  if (!path.includes('%')) return null;
  if (ENCODED_SEPARATOR.test(path)) return 'holds a percent-encoded / or \\ in its path';
  for (const segment of path.split('/')) {
    if (!segment.includes('%')) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      continue;
    }
    if (decoded === '.' || decoded === '..') return 'holds a percent-encoded . or .. path segment';
    if (CONTROL.test(decoded)) return 'holds a control character in its path';
  }
  return null;
}

/**
 * Checks the request target before routing and before any other guard decides on it: an
 * origin-form path (`/api/...`; absolute-form `http://elsewhere/` and `*` are proxy and server-wide
 * forms Quire does not serve) in normal form (`targetNotNormal`), valid percent-encoded UTF-8 in the
 * path and query, no `__proto__`-like query names and at most MAX_QUERY_PARAMETERS parameters.
 * Node's HTTP parser has already refused raw control and non-ASCII bytes (see `server.ts`, clientError).
 */
export const requestTargetGuard: Guard = (req) => {
  const url = req.url ?? '';
  if (!url.startsWith('/')) return new AppError('bad_request', 'The request target must be a path starting with /');
  const notNormal = targetNotNormal(url);
  if (notNormal) {
    return new AppError('bad_request', `The request target ${notNormal}; send the path in normal form`, undefined, {
      code: 'target_not_normal',
    });
  }
  const cut = url.indexOf('?');
  try {
    decodeURIComponent(cut < 0 ? url : url.slice(0, cut));
  } catch {
    return new AppError('bad_request', 'The request path has malformed percent-encoding');
  }
  return cut < 0 ? null : checkFormPairs(url.slice(cut + 1), 'query string', MAX_QUERY_PARAMETERS);
};
