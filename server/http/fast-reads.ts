import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Express, RequestHandler } from 'express';
import { readList, readRow } from './row-routes.js';
import type { TimedRead } from './send-timed.js';
import type { Services } from './services.js';

/** `/api/cms/:type` or `/api/cms/:type/:id`, with an optional query string. */
const HOT_READ = /^\/api\/cms\/([^/?#]+)(?:\/([^/?#]+))?(?:\?([^#]*))?$/;

/**
 * The two hot reads, `GET /api/cms/:type` and `GET /api/cms/:type/:id`, answered in front of
 * Express: its router and response helpers cost several times the query itself (measured: a bare
 * Express route tops out near 10k req/s here, node:http near 60k). The answer is the same — the
 * same guards run first, the same `readList` / `readRow` build the body, `JSON.stringify` writes it
 * as `res.json` would — and anything else falls through to Express untouched: other methods and
 * paths, a guard that refuses, a read that throws (unknown type or id, bad query), so every
 * refusal and error still comes from the one error middleware.
 */
export function withFastReads(app: Express, services: Services, guards: readonly RequestHandler[]): RequestListener {
  return (req, res) => {
    if (req.method !== 'GET') return app(req, res);
    const match = HOT_READ.exec(req.url ?? '');
    if (!match) return app(req, res);
    fastRead(app, services, guards, match, req, res).catch(() => {
      if (!res.headersSent) app(req, res);
    });
  };
}

async function fastRead(
  app: Express,
  services: Services,
  guards: readonly RequestHandler[],
  [, rawType, rawId, rawQuery]: RegExpExecArray,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // The guards are Express middleware: give them the request and response Express would.
  Object.setPrototypeOf(req, app.request);
  Object.setPrototypeOf(res, app.response);
  const expressReq = req as unknown as Parameters<RequestHandler>[0];
  const expressRes = res as unknown as Parameters<RequestHandler>[1];
  for (const guard of guards) {
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
  const type = decodeURIComponent(rawType);
  const read: TimedRead<object> =
    rawId === undefined
      ? await readList(services, type, parseQueryString(rawQuery ?? ''))
      : await readRow(services, type, decodeURIComponent(rawId));
  const json = JSON.stringify(read.body);
  res.setHeader('Server-Timing', read.serverTiming);
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}
