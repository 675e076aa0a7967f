import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { requestArrived, shareChangeToken } from '../db/queries/change-token-sharing.js';
import { fastRead } from './fast-reads.js';
import { type FastWriteOptions, fastWrite, rowWriteOf } from './fast-writes.js';
import { targetNotNormal } from './request-target-guard.js';
import type { Services } from './services.js';

/** `/api/cms/:type` or `/api/cms/:type/:id`, with an optional query string. */
const ROW_TARGET = /^\/api\/cms\/([^/?#]+)(?:\/([^/?#]+))?(?:\?([^#]*))?$/;

/**
 * The server's request listener: the hot reads (`fast-reads.ts`) and row writes (`fast-writes.ts`)
 * answered in front of Express, and anything else by Express untouched: other methods and paths,
 * and whatever those paths hand back (a guard that refuses, a read that throws). Every request to
 * the server must come through this listener: it counts arrivals for change-token-sharing.ts.
 */
export function withFastPaths(app: Express, services: Services, options: FastWriteOptions): RequestListener {
  let waiting: [RegExpExecArray, IncomingMessage, ServerResponse][] = [];
  // The hot reads that arrived in one turn of the event loop are answered together right after it
  // (setImmediate runs after the turn's socket reads), sharing one check for other processes'
  // commits (change-token-sharing.ts: the check is still after each request's arrival).
  const answerWaiting = () => {
    const batch = waiting;
    waiting = [];
    shareChangeToken(() =>
      batch.map(([match, req, res]) =>
        fastRead(services, options.guards, [match[1], match[2], match[3]], req, res).catch(() => {
          if (!res.headersSent) app(req, res);
        }),
      ),
    );
  };
  return (req, res) => {
    requestArrived();
    const match = ROW_TARGET.exec(req.url ?? '');
    // `/api/cms/:type/trash` is the type's trash (revision-routes), not a row called "trash". A
    // target not in normal form goes to Express, whose request-target guard refuses it: only then
    // is the raw path the path the guards decide on.
    if (!match || match[2] === 'trash' || targetNotNormal(match[0]) !== null) return app(req, res);
    if (req.method === 'GET') {
      if (waiting.push([match, req, res]) === 1) setImmediate(answerWaiting);
      return;
    }
    const write = rowWriteOf(req.method, match[1], match[2]);
    if (!write) return app(req, res);
    void fastWrite(services, options, write, req, res).then(
      (answered) => {
        if (!answered) app(req, res);
      },
      // fastWrite answers every failure itself; this is a failure to answer one (its body may be
      // read, so Express cannot answer either).
      (error) => {
        options.log(`${req.method} ${req.url} could not be answered`, error);
        res.destroy();
      },
    );
  };
}
