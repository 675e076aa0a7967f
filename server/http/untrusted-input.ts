import { AppError } from '../errors/app-error.js';

/**
 * Checks on raw, untrusted request input (query strings, form bodies, parsed JSON) that the
 * parsers themselves do not make: qs and `querystring` silently keep or mangle malformed
 * percent-encoding and qs silently drops `__proto__`, so a client would never learn its request
 * was not understood. Each check returns the refusal instead of guessing.
 */

/** Keys that could reach an object's prototype chain; refused wherever they appear. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Most query parameters a URL may carry (list queries use a handful). */
export const MAX_QUERY_PARAMETERS = 100;

/** Most members (keys and array elements, all levels) a JSON body may have; forms cap at the same. */
export const MAX_JSON_ENTRIES = 1000;

/**
 * Deepest nesting of a JSON body: the deepest write body is a content-type definition whose blocks
 * column nests block types three deep (common/block-rules.ts), each level `blocks`, a block type,
 * its `columns` and a column, down to a select's option or a condition's values (17 levels); the
 * rest is headroom that lets validation name a fourth level of blocks rather than the depth.
 */
export const MAX_JSON_DEPTH = 20;

/** Whether a decoded form key (`meta[title]`, `a[b][c]`) names a forbidden key at any level. */
function hasForbiddenSegment(key: string): boolean {
  return key.split(/[[\]]/).some((segment) => FORBIDDEN_KEYS.has(segment));
}

/** Decodes one `application/x-www-form-urlencoded` component, or undefined when malformed. */
function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/**
 * Checks `key=value&...` text (a query string or a form body): every component must be valid
 * percent-encoded UTF-8 and no key may name a forbidden key. `where` names the part in messages.
 */
export function checkFormPairs(text: string, where: 'query string' | 'body', maxPairs?: number): AppError | null {
  let pairs = 0;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    pairs++;
    if (maxPairs !== undefined && pairs > maxPairs) {
      return new AppError('bad_request', `The ${where} has more than ${maxPairs} parameters`);
    }
    const cut = pair.indexOf('=');
    const key = decodeComponent(cut < 0 ? pair : pair.slice(0, cut));
    const value = cut < 0 ? '' : decodeComponent(pair.slice(cut + 1));
    if (key === undefined || value === undefined) {
      return new AppError('bad_request', `The ${where} has malformed percent-encoding`);
    }
    if (key.includes('\u0000')) return new AppError('bad_request', `The ${where} has a NUL character in a name`);
    if (hasForbiddenSegment(key)) return forbiddenKey(key, where);
  }
  return null;
}

/**
 * Checks a parsed JSON body: no forbidden key at any level, at most MAX_JSON_DEPTH levels and
 * MAX_JSON_ENTRIES members. Iterative, so a deep body cannot exhaust the stack.
 */
export function checkJsonBody(value: unknown): AppError | null {
  return checkJsonTree(value, {
    tooDeep: `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`,
    tooMany: `The request body has more than ${MAX_JSON_ENTRIES} values`,
    keyed: 'body',
  });
}

/** What a JSON check says when it refuses, so a body and a field each get their own wording. */
interface JsonRefusals {
  tooDeep: string;
  tooMany: string;
  /** Completes "The ... uses the reserved name". */
  keyed: string;
}

function checkJsonTree(value: unknown, say: JsonRefusals): AppError | null {
  let entries = 0;
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop() as { value: unknown; depth: number };
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > MAX_JSON_DEPTH) return new AppError('bad_request', say.tooDeep);
    // JSON.parse makes `__proto__` an own key, so Object.keys sees every key that was sent.
    for (const key of Object.keys(current)) {
      if (++entries > MAX_JSON_ENTRIES) return new AppError('payload_too_large', say.tooMany);
      if (!Array.isArray(current) && FORBIDDEN_KEYS.has(key)) return forbiddenKey(key, say.keyed);
      pending.push({ value: (current as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  return null;
}

/** A JSON text sent inside a body field: its value, or why it is refused. */
export type JsonFieldResult = { ok: true; value: unknown } | { ok: false; error: AppError };

/**
 * Parses JSON text sent inside a body field (a form's `columns=[...]`, or a JSON body's member
 * given as a string) with exactly the limits of a JSON body, as if the body had been
 * `{"<field>": <the JSON>}`: depth counted from the body's top (so the field's own value starts
 * at level 2), at most MAX_JSON_ENTRIES values, no forbidden key, no key twice in one object.
 * Otherwise the encoding would decide the limits: a form could store what a JSON body cannot
 * (a 4,000-deep option value that later overflows the stack of every read).
 */
export function parseJsonField(text: string, field: string): JsonFieldResult {
  const where = `The JSON in ${field}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: new AppError('bad_request', `${field} is not valid JSON`) };
  }
  const problem = checkJsonTree(
    { [field]: value },
    {
      tooDeep: `${where} is nested more than ${MAX_JSON_DEPTH} levels deep, counted from the top of the body`,
      tooMany: `${where} has more than ${MAX_JSON_ENTRIES} values`,
      keyed: `JSON in ${field}`,
    },
  );
  if (problem) return { ok: false, error: problem };
  const twice = duplicateJsonKey(text);
  if (twice !== null) {
    return {
      ok: false,
      error: new AppError('bad_request', `${where} names ${JSON.stringify(twice)} twice in one object`),
    };
  }
  return { ok: true, value };
}

/**
 * The first key a JSON text names twice in one object (`{"title":"a","title":"b"}`), or null.
 * JSON.parse silently keeps the last one; a field sent twice is refused, as in forms. Scans the
 * text of a body JSON.parse accepted, so strings and nesting are well formed.
 */
export function duplicateJsonKey(text: string): string | null {
  const objects: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        const keys = objects[objects.length - 1] as Set<string>;
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (char === '{') {
      objects.push(new Set());
      expectKey = true;
    } else if (char === '[') {
      objects.push(null);
    } else if (char === '}' || char === ']') {
      objects.pop();
    } else if (char === ',') {
      expectKey = objects[objects.length - 1] instanceof Set;
    }
  }
  return null;
}

function forbiddenKey(key: string, where: string): AppError {
  return new AppError(
    'bad_request',
    `The ${where} uses the reserved name ${JSON.stringify(key)} (__proto__, constructor and prototype are refused)`,
  );
}
