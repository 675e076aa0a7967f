import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Express, RequestHandler } from 'express';
import type { ContentType } from '../content/content-type.js';
import { requestArrived, shareChangeToken } from '../db/change-token-sharing.js';
import { answerConditionally, ifNoneMatchHits, taggedJsonText } from './etag.js';
import { readList, readRow } from './row-routes.js';
import { SECURITY_HEADER_LIST, securityHeaders } from './security-headers.js';
import type { TimedRead } from './send-timed.js';
import type { Services } from './services.js';

/** `/api/cms/:type` or `/api/cms/:type/:id`, with an optional query string. */
const HOT_READ = /^\/api\/cms\/([^/?#]+)(?:\/([^/?#]+))?(?:\?([^#]*))?$/;

/** Thrown when a guard needs more of Express than the views offer: Express answers instead. */
class NeedsExpress extends Error {}

/** The raw request, refusing what only Express's request adds (req.get, req.hostname...). */
function requestView(req: IncomingMessage): IncomingMessage {
  return new Proxy(req, {
    get(target, property) {
      if (!(property in target)) throw new NeedsExpress(String(property));
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The raw response plus Express's `set` and `vary` as guards use them; nothing else of Express.
 * `touched` says whether a guard set a header (then the answer merges its headers with them).
 */
function responseView(res: ServerResponse) {
  const view = {
    touched: false,
    setHeader: (name: string, value: string | number | readonly string[]) => {
      view.touched = true;
      res.setHeader(name, value);
      return view;
    },
    getHeader: (name: string) => res.getHeader(name),
    hasHeader: (name: string) => res.hasHeader(name),
    set(field: string | Record<string, string>, value?: string) {
      const fields = typeof field === 'string' ? { [field]: value } : field;
      for (const [name, text] of Object.entries(fields)) {
        // Express adds a charset to Content-Type; guards never set it, so leave that to Express.
        if (name.toLowerCase() === 'content-type') throw new NeedsExpress('set content-type');
        view.touched = true;
        res.setHeader(name, String(text));
      }
      return view;
    },
    vary(field: string) {
      const current = String(res.getHeader('Vary') ?? '');
      const names = current.split(',').map((name) => name.trim().toLowerCase());
      if (!names.includes('*') && !names.includes(field.toLowerCase())) {
        view.touched = true;
        res.setHeader('Vary', current ? `${current}, ${field}` : field);
      }
      return view;
    },
  };
  const proxy = new Proxy(view, {
    get(target, property) {
      if (!(property in target)) throw new NeedsExpress(String(property));
      return Reflect.get(target, property);
    },
  });
  return { view, proxy };
}

/**
 * The two hot reads, `GET /api/cms/:type` and `GET /api/cms/:type/:id`, answered in front of
 * Express: its router and response helpers cost several times the query itself (measured: a bare
 * Express route tops out near 10k req/s here, node:http near 60k). The answer is the same — the
 * same guards run first, the same `readList` / `readRow` build the body, `taggedJsonText` writes
 * it and its ETag (and answers 304) as the Express routes do — and anything else falls through to
 * Express untouched: other methods and paths, a guard that refuses, a read that throws (unknown
 * type or id, bad query), so every refusal and error still comes from the one error middleware.
 * Every request to the server must come through this listener: it counts arrivals for
 * change-token-sharing.ts.
 */
export function withFastReads(app: Express, services: Services, guards: readonly RequestHandler[]): RequestListener {
  let waiting: [RegExpExecArray, IncomingMessage, ServerResponse][] = [];
  // The hot reads that arrived in one turn of the event loop are answered together right after it
  // (setImmediate runs after the turn's socket reads), sharing one check for other processes'
  // commits (change-token-sharing.ts: the check is still after each request's arrival).
  const answerWaiting = () => {
    const batch = waiting;
    waiting = [];
    shareChangeToken(() =>
      batch.map(([match, req, res]) =>
        fastRead(services, guards, match, req, res).catch(() => {
          if (!res.headersSent) app(req, res);
        }),
      ),
    );
  };
  return (req, res) => {
    requestArrived();
    if (req.method !== 'GET') return app(req, res);
    const match = HOT_READ.exec(req.url ?? '');
    // `/api/cms/:type/trash` is the type's trash (revision-routes), not a row called "trash".
    if (!match || match[2] === 'trash') return app(req, res);
    if (waiting.push([match, req, res]) === 1) setImmediate(answerWaiting);
  };
}

async function fastRead(
  services: Services,
  guards: readonly RequestHandler[],
  [, rawType, rawId, rawQuery]: RegExpExecArray,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // The guards are Express middleware. Express would re-prototype req and res, which makes every
  // later use of them slow (measured: node:http from 35k to 6k req/s); they get views instead,
  // with the few response helpers guards use. Anything else falls back to Express.
  const expressReq = requestView(req) as unknown as Parameters<RequestHandler>[0];
  const response = responseView(res);
  const expressRes = response.proxy as unknown as Parameters<RequestHandler>[1];
  for (const guard of guards) {
    // The security headers go out with the answer's own headers, in one writeHead (below).
    if (guard === securityHeaders) continue;
    // Guards call next() at once; one that waits is awaited.
    let passed: boolean | undefined;
    let resume: ((passed: boolean) => void) | undefined;
    guard(expressReq, expressRes, (error?: unknown) => {
      passed = error === undefined;
      resume?.(passed);
    });
    if (passed === undefined) passed = await new Promise<boolean>((resolve) => (resume = resolve));
    // A refusal is answered by Express (guards again, then the error middleware).
    if (!passed) throw new Error('refused');
  }
  const table = decodeURIComponent(rawType);
  const read: TimedRead<object> =
    rawId === undefined
      ? await readList(services, table, parseQueryString(rawQuery ?? ''))
      : await readRow(services, table, decodeURIComponent(rawId));
  const { text, etag } = taggedJsonText(read.body, publishedColumnsOf(services, table));
  if (response.view.touched) {
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
