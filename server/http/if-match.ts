import { AppError } from '../errors/app-error.js';

/**
 * An `If-Match` header as RFC 9110 (13.1.1) reads it: `*` (the target exists) or a list of entity
 * tags, compared strongly (a weak tag never matches). Null when the request has none.
 */
export type IfMatch = { any: true } | { any: false; tags: string[] };

/**
 * Parses `If-Match`. A value that is neither `*` nor a list of entity tags (a bare word, an unclosed
 * quote, `*` among tags) is refused with a 400: a write must not guess which version was meant.
 */
export function parseIfMatch(header: string | string[] | undefined): IfMatch | null {
  if (header === undefined) return null;
  const text = (Array.isArray(header) ? header.join(',') : header).trim();
  if (text === '*') return { any: true };
  const tags: string[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (char === ',' || char === ' ' || char === '\t') {
      at++;
      continue;
    }
    const weak = text.startsWith('W/', at);
    const open = weak ? at + 2 : at;
    if (text[open] !== '"') throw malformed();
    const close = text.indexOf('"', open + 1);
    if (close < 0) throw malformed();
    const tag = text.slice(open, close + 1);
    if (!ETAG_CHARACTERS.test(tag.slice(1, -1))) throw malformed();
    if (!weak) tags.push(tag);
    at = close + 1;
    // After a tag: only optional whitespace, then a comma or the end.
    while (text[at] === ' ' || text[at] === '\t') at++;
    if (at < text.length && text[at] !== ',') throw malformed();
  }
  // An empty list names no version, so it holds for none.
  return { any: false, tags };
}

/** Whether `If-Match` holds for a representation with this strong tag (null: there is none). */
export function ifMatchHolds(condition: IfMatch, etag: string | null): boolean {
  if (etag === null) return false;
  return condition.any || condition.tags.includes(etag);
}

/** etagc of RFC 9110: visible characters but `"`, and obs-text. */
const ETAG_CHARACTERS = /^[\x21\x23-\x7e\x80-\xff]*$/;

function malformed(): AppError {
  return new AppError('bad_request', 'If-Match must be * or a list of entity tags ("…", W/"…")');
}
