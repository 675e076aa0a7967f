import express, { type RequestHandler } from 'express';
import { AppError } from '../errors/app-error.js';

/** Default cap on a request body (forms and JSON). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Options of the body parsers. */
export interface BodyLimits {
  /** Largest body in bytes. */
  bodyLimit: number;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Parses write bodies: `application/x-www-form-urlencoded` (nested `meta[title]` keys, repeated
 * keys as arrays, which fields refuse where one value is expected) and `application/json`.
 * A body of any other type is a 415; `__proto__`-like keys never reach objects (qs drops them).
 */
export function bodyParsers({ bodyLimit }: BodyLimits): RequestHandler[] {
  // `depth` (body-parser 2) caps nesting at meta[title]; its typings lag behind, hence the spread.
  const form = express.urlencoded({ extended: true, limit: bodyLimit, parameterLimit: 1000, ...{ depth: 1 } });
  const json = express.json({ limit: bodyLimit, strict: true });
  const requireSupportedType: RequestHandler = (req, _res, next) => {
    if (!WRITE_METHODS.has(req.method) || !hasBody(req.headers)) return next();
    if (req.is(['application/x-www-form-urlencoded', 'application/json'])) return next();
    next(
      new AppError('unsupported_media_type', 'Send the body as application/x-www-form-urlencoded or application/json'),
    );
  };
  return [requireSupportedType, form, json];
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
}
