import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import typeIs from 'type-is';
import { AppError, validationError } from '../errors/app-error.js';
import { checkFormPairs, checkJsonBody, duplicateJsonKey } from './untrusted-input.js';

/** Default cap on a request body (forms and JSON). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Most parameters a form body may carry. */
export const MAX_FORM_PARAMETERS = 1000;

/** Options of the body parsers. */
export interface BodyLimits {
  /** Largest body in bytes. */
  bodyLimit: number;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const SUPPORTED_TYPES = ['application/x-www-form-urlencoded', 'application/json'];

/**
 * Parses write bodies: `application/x-www-form-urlencoded` (nested `meta[title]` keys, repeated
 * keys as arrays, which fields refuse where one value is expected) and `application/json`.
 * Refusals, each before anything is written:
 * - another media type, a charset other than UTF-8, or a Content-Encoding (gzip...): 415;
 * - bytes that are not valid UTF-8, malformed percent-encoding, malformed JSON, nesting deeper
 *   than `meta[title]` (forms) or MAX_JSON_DEPTH levels (JSON), a `__proto__`/`constructor`/`prototype` key,
 *   a JSON key given twice in one object (forms: a repeated field fails validation): 400;
 * - more than `bodyLimit` bytes or more than 1000 parameters/values: 413.
 *
 * The parsers use nothing of Express's request (type-is, not `req.is`): the row routes run them
 * on node's request as they are, Express through `bodyParsing`.
 */
export function bodyReader({ bodyLimit }: BodyLimits): BodyReader {
  // `depth` (body-parser 2) caps nesting at meta[title]; its typings lag behind, hence the spread.
  const form = express.urlencoded({
    extended: true,
    limit: bodyLimit,
    parameterLimit: MAX_FORM_PARAMETERS,
    inflate: false,
    verify: (_req, _res, raw) => {
      const problem = utf8Problem(raw) ?? checkFormPairs(raw.toString('utf8'), 'body');
      if (problem) throw problem;
    },
    ...{ depth: 1 },
  });
  const json = express.json({
    limit: bodyLimit,
    strict: true,
    inflate: false,
    verify: (req, _res, raw) => {
      const problem = utf8Problem(raw);
      if (problem) throw problem;
      rawJson.set(req, raw.toString('utf8'));
    },
  });
  // The JSON text, kept for the duplicate-key check until the request is done with.
  const rawJson = new WeakMap<IncomingMessage, string>();
  /** Runs one of body-parser's parsers, which set `req.body`. */
  const parse = (parser: RequestHandler, req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((resolve, reject) => {
      const asExpress = [req, res] as unknown as Parameters<RequestHandler>;
      parser(asExpress[0], asExpress[1], (error?: unknown) => (error === undefined ? resolve() : reject(error)));
    });
  return async (req, res) => {
    const refused = unsupportedType(req);
    if (refused) throw refused;
    await parse(form, req, res);
    await parse(json, req, res);
    const body = (req as { body?: unknown }).body;
    // qs has checked form depth and count; JSON.parse has neither limit, so they are checked here.
    if (body !== undefined && typeIs(req, ['application/json'])) {
      const problem = checkJsonBody(body);
      if (problem) throw problem;
      const twice = duplicateJsonKey(rawJson.get(req) ?? '');
      if (twice !== null) throw validationError({ [twice]: { code: 'repeated' } });
    }
    return body;
  };
}

/**
 * Reads a request's body (`req.body` too): parsed when it is a form or JSON, undefined when there
 * is none; rejects with the refusal (an AppError, or body-parser's error for the error mapping).
 */
export type BodyReader = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

/** `reader` as Express middleware: the body in `req.body`, a refusal to the error middleware. */
export function bodyParsing(reader: BodyReader): RequestHandler {
  return (req, res, next) => {
    reader(req, res).then(() => next(), next);
  };
}

/** Why a write's body is refused before it is read (media type, charset), or null. */
function unsupportedType(req: IncomingMessage): AppError | null {
  if (!WRITE_METHODS.has(req.method ?? '') || !hasBody(req.headers)) return null;
  if (!typeIs(req, SUPPORTED_TYPES)) {
    return new AppError(
      'unsupported_media_type',
      'Send the body as application/x-www-form-urlencoded or application/json',
    );
  }
  const charset = charsetOf(req);
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    return new AppError('unsupported_media_type', `The body charset ${charset} is not supported; send UTF-8`);
  }
  return null;
}

function utf8Problem(raw: Buffer): AppError | null {
  return isUtf8(raw) ? null : new AppError('bad_request', 'The request body is not valid UTF-8');
}

/** The lower-cased `charset` parameter of the Content-Type, or null when absent. */
function charsetOf(req: IncomingMessage): string | null {
  const parameters = (req.headers['content-type'] ?? '').split(';').slice(1);
  for (const parameter of parameters) {
    const [name, ...rest] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    return rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return null;
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
}
