import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isCommitOutcomeUnknown, isDatabaseUnavailable } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import { SAFE_METHODS } from './origin-guard.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** body-parser / raw-body error types and what they mean to a client. */
const BODY_ERRORS: Record<string, (error: { limit?: unknown }) => AppError> = {
  'entity.too.large': ({ limit }) =>
    new AppError(
      'payload_too_large',
      typeof limit === 'number'
        ? `The request body is larger than the server accepts (${limit} bytes)`
        : 'The request body is larger than the server accepts',
      undefined,
      typeof limit === 'number' ? { code: 'too_large', limit } : undefined,
    ),
  'entity.parse.failed': () => new AppError('bad_request', 'The request body is not valid JSON'),
  'entity.verify.failed': () => new AppError('bad_request', 'The request body could not be verified'),
  'request.aborted': () => new AppError('bad_request', 'The request body was cut off'),
  'request.size.invalid': () => new AppError('bad_request', 'The request body does not match its Content-Length'),
  'charset.unsupported': () => new AppError('unsupported_media_type', 'The body charset is not supported; send UTF-8'),
  'encoding.unsupported': () => new AppError('unsupported_media_type', 'The body Content-Encoding is not supported'),
  'parameters.too.many': () => new AppError('payload_too_large', 'The request body has too many parameters'),
  'querystring.parse.rangeError': () =>
    new AppError('bad_request', 'The request body is nested too deeply (one level, as in meta[title], is allowed)'),
  'stream.encoding.set': () => new AppError('internal_error', 'The request could not be read'),
};

/**
 * Turns whatever went wrong with a request made with `method` into an AppError; a database that
 * went away becomes a 503 `database_unavailable` (worth retrying), other unknown failures an opaque
 * 500. Both tell the client what it may assume: a read changed nothing, a write was not saved;
 * except a write whose connection ended during its COMMIT, which may have been saved: its 503 says
 * so, with `detail: {"code":"outcome_unknown"}`.
 */
export function toAppError(error: unknown, method: string): AppError {
  if (error instanceof AppError) return error;
  if (error && typeof error === 'object') {
    const type = (error as { type?: unknown }).type;
    if (typeof type === 'string' && Object.hasOwn(BODY_ERRORS, type)) return BODY_ERRORS[type](error);
    // After the body errors: a client that hangs up mid-body is `request.aborted`, not the database.
    // The message is ours alone; the driver's would name the database's host (and could name its user).
    if (isCommitOutcomeUnknown(error)) {
      // The connection ended while PostgreSQL committed: only reading the row back tells.
      return new AppError(
        'database_unavailable',
        'The database went away while the change was being saved; it may or may not have been saved. Read it back before sending it again',
        undefined,
        { code: 'outcome_unknown' },
      );
    }
    if (isDatabaseUnavailable(error)) {
      return new AppError(
        'database_unavailable',
        SAFE_METHODS.has(method)
          ? 'The database cannot be reached right now; nothing was changed. Try again shortly'
          : 'The database cannot be reached right now; the change was not saved. Try again shortly',
      );
    }
    // qs / decodeURIComponent on a malformed percent-encoding.
    if (error instanceof URIError) return new AppError('bad_request', 'The request has malformed percent-encoding');
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return new AppError('bad_request', 'The request is malformed');
    }
  }
  return new AppError(
    'internal_error',
    SAFE_METHODS.has(method)
      ? 'Something went wrong on the server while reading; nothing was changed'
      : 'Something went wrong on the server; the change was not saved',
  );
}

/** Options of the error middleware. */
export interface ErrorMiddlewareOptions {
  /** Where unexpected errors are reported (never to the client). */
  log: (message: string, error: unknown) => void;
}

/** The one place errors become responses: the API's JSON error shape, never a stack trace. */
export function errorMiddleware({ log }: ErrorMiddlewareOptions): ErrorRequestHandler {
  return (error, req, res, _next) => answerError(error, req, res, log);
}

/**
 * Answers a request that failed with `error` (the error middleware's answer, also given by the
 * request listener to a refused request and by the row routes): its status and JSON error body,
 * with the headers already set (security headers, CORS). Unexpected failures are logged, never sent.
 */
export function answerError(
  error: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  log: ErrorMiddlewareOptions['log'],
): void {
  const method = req.method ?? 'GET';
  const appError = toAppError(error, method);
  // Express's request has the URL as sent in originalUrl (its url is cut to the mounted router's part).
  const url = 'originalUrl' in req ? String(req.originalUrl) : req.url;
  if (appError.status >= 500) log(`${method} ${url} failed`, error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeJson(res, appError.status, appError.toBody());
}

/** A JSON answer as Express's `res.status(status).json(body)` gives it, on the raw response. */
export function writeJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Unknown routes under /api: a JSON 404 rather than Express's HTML page. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError('not_found', `There is no route ${req.method} ${req.path}`));
};

/**
 * A route's answer to methods it does not support: sets `Allow` and answers OPTIONS with a 204
 * (returning null), or returns the 405 to answer.
 */
export function refuseOtherMethods(
  allowed: readonly string[],
): (req: IncomingMessage, res: ServerResponse) => AppError | null {
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  return (req, res) => {
    res.setHeader('Allow', allow);
    if (req.method === 'OPTIONS') {
      res.statusCode = 204;
      res.end();
      return null;
    }
    return new AppError('method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(' or ')}`);
  };
}

/** `refuseOtherMethods` as an Express route's catch-all. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  const refuse = refuseOtherMethods(allowed);
  return (req, res, next) => {
    const refusal = refuse(req, res);
    if (refusal) next(refusal);
  };
}

/** Node's HTTP parser error codes and what they mean to a client. */
const PARSER_ERRORS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'The request headers are larger than the server accepts',
  HPE_INVALID_URL: 'The request target has characters that must be percent-encoded',
  HPE_INVALID_METHOD: 'The request method is malformed',
  HPE_INVALID_HEADER_TOKEN: 'A request header is malformed',
  HPE_INVALID_CONTENT_LENGTH: 'The Content-Length header is malformed',
  HPE_INVALID_TRANSFER_ENCODING: 'The Transfer-Encoding header is malformed or conflicts with Content-Length',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'The Content-Length header conflicts with Transfer-Encoding',
  HPE_INVALID_CHUNK_SIZE: 'The chunked body is malformed',
};

/**
 * A complete HTTP/1.1 response for a request Node could not parse (the `clientError` event of
 * `server.ts`, which Express never sees): the same JSON error shape and security headers, and the
 * connection closed since the stream can no longer be trusted.
 */
export function clientErrorResponse(error: { code?: string }): string {
  const message = PARSER_ERRORS[error.code ?? ''] ?? 'The request is malformed';
  const body = JSON.stringify(new AppError('bad_request', message).toBody());
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...SECURITY_HEADERS,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 400 Bad Request\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}
