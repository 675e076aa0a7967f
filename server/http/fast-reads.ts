import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { RequestHandler } from 'express';
import type { ContentType } from '../content/content-type.js';
import { readableBy } from './describe-routes.js';
import { answerConditionally, ifNoneMatchHits, taggedJsonText } from './etag.js';
import { passGuards } from './fast-path-guards.js';
import { readList, readRow } from './row-routes.js';
import { SECURITY_HEADER_LIST, securityHeaders } from './security-headers.js';
import type { TimedRead } from './send-timed.js';
import type { Services } from './services.js';

/**
 * `GET /api/cms/:type` or `GET /api/cms/:type/:id` (split by the fast path's pattern) answered in
 * front of Express: its router and response helpers cost several times the query itself
 * (measured: a bare Express route tops out near 10k req/s here, node:http near 60k). The answer is
 * the same — the same guards run first, the same `readList` / `readRow` build the body,
 * `taggedJsonText` writes it and its ETag (and answers 304) as the Express routes do. It rejects,
 * having answered nothing, for anything Express must answer: a guard that refuses, a read that
 * throws (unknown type or id, bad query), so every refusal and error still comes from the one
 * error middleware.
 */
export async function fastRead(
  services: Services,
  guards: readonly RequestHandler[],
  [rawType, rawId, rawQuery]: readonly [string, string | undefined, string | undefined],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // The security headers go out with the answer's own headers, in one writeHead (below).
  const guarded = await passGuards(guards, req, res, securityHeaders);
  const table = decodeURIComponent(rawType);
  // As the guards found it: a type-limited credential is answered its own view (see readList).
  const readable = readableBy(req);
  const read: TimedRead<object> =
    rawId === undefined
      ? await readList(services, table, parseQueryString(rawQuery ?? ''), readable)
      : await readRow(services, table, decodeURIComponent(rawId), readable);
  const { text, etag } = taggedJsonText(read.body, publishedColumnsOf(services, table));
  if (guarded.touched) {
    // A guard set headers (CORS, Vary): merged the slower way, the same as Express would.
    for (let i = 0; i < SECURITY_HEADER_LIST.length; i += 2)
      res.setHeader(SECURITY_HEADER_LIST[i], SECURITY_HEADER_LIST[i + 1]);
    res.setHeader('Server-Timing', read.serverTiming);
    // The same tag and 304 as the Express routes give (conditionalGets).
    if (answerConditionally(req, res, etag)) return;
    res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  // The same headers, tag and 304 as the Express routes give (securityHeaders, conditionalGets),
  // as one list: no header map is built, and the head goes out with the body in one write.
  const head = [...SECURITY_HEADER_LIST, 'Server-Timing', read.serverTiming, 'ETag', etag, 'Cache-Control', NO_CACHE];
  if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
    res.writeHead(304, head);
    res.end();
    return;
  }
  head.push('Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(text)));
  res.writeHead(200, head);
  res.end(text);
}

const JSON_TYPE = 'application/json; charset=utf-8';
const NO_CACHE = 'no-cache';

/** The type's published columns, whose JSON a read's body may reuse (see taggedJsonText). */
function publishedColumnsOf(services: Services, table: string): ContentType['publishedColumns'] | undefined {
  try {
    return services.registry.requireByTable(table).publishedColumns;
  } catch {
    return undefined;
  }
}
