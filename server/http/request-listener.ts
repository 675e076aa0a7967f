import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { ChangeTokenSharing } from '../db/queries/change-token-sharing.js';
import { answerError, type ErrorMiddlewareOptions } from './error-middleware.js';
import type { LocalhostGuards } from './localhost-guards.js';
import { ANSWERED, type GuardOutcome, runGuards } from './request-guard.js';
import { type RowRoutes, type RowTarget, rowTargetOf } from './row-routes.js';
import { setSecurityHeaders } from './security-headers.js';

/** What the request listener runs. */
export interface RequestListenerOptions {
  /** Every route but the row routes (Express: the rest of the API, uploads, media, the editor). */
  app: Express;
  /** The guards every request passes, and those of requests under `/api`. */
  guards: LocalhostGuards;
  /** `/api/cms/:type[/:id]`. */
  rows: RowRoutes;
  /**
   * The database's change-token sharing, counted and batched here (see change-token-sharing.ts);
   * none where reads never share the token.
   */
  changeTokens?: ChangeTokenSharing;
  /** Where unexpected errors are reported (the error middleware's log). */
  log: ErrorMiddlewareOptions['log'];
}

/** A path under `/api` as Express mounts the API there (any case). */
const API_PATH = /^\/api(?:[/?]|$)/i;

/**
 * The server's one request pipeline. Every answer carries the security headers, and every request
 * passes the guards (plain functions over node's request and response), in order, before any
 * route: Host, request target, CORS and Origin, then for `/api` who is asking and may they. A refusal is answered by the error
 * mapping (`answerError`). The route is decided up front from the method and path: the row routes
 * (`row-routes.ts`) answer theirs on node's request directly; Express answers every other route.
 *
 * Reads of rows that arrived in one turn of the event loop are answered together right after it
 * (setImmediate runs after the turn's socket reads), sharing one check for other processes'
 * commits (change-token-sharing.ts: the check is still after each request's arrival). Every
 * request to the server must come through this listener, which counts arrivals for that sharing.
 */
export function requestListener(options: RequestListenerOptions): RequestListener {
  const { app, guards, rows, log } = options;
  const changeTokens = options.changeTokens ?? new ChangeTokenSharing();

  /** The guards of a request: every request's, then the API's for a path under `/api`. */
  const guard = (req: IncomingMessage, res: ServerResponse): GuardOutcome | Promise<GuardOutcome> => {
    const thenApi = (outcome: GuardOutcome) =>
      outcome === null && API_PATH.test(req.url ?? '') ? runGuards(guards.api, req, res) : outcome;
    const outcome = runGuards(guards.all, req, res);
    return outcome instanceof Promise ? outcome.then(thenApi) : thenApi(outcome);
  };
  const answerRefusal = (req: IncomingMessage, res: ServerResponse, refusal: unknown) => {
    if (!res.headersSent) setSecurityHeaders(res);
    answerError(refusal, req, res, log);
  };

  /**
   * A row route: its guards, then the route. A read sends the security headers in its one head
   * (see row-routes.ts); any other answer sets them first.
   */
  const handleRow = async (req: IncomingMessage, res: ServerResponse, target: RowTarget): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') setSecurityHeaders(res);
    try {
      const outcome = await guard(req, res);
      if (outcome === ANSWERED) return;
      if (outcome !== null) return answerRefusal(req, res, outcome);
      await rows(req, res, target);
    } catch (error) {
      answerRefusal(req, res, error);
    }
  };

  /** Any other route: the security headers, the guards, then Express. */
  const handleOther = (req: IncomingMessage, res: ServerResponse) => {
    setSecurityHeaders(res);
    const pass = (outcome: GuardOutcome) => {
      if (outcome === ANSWERED) return;
      if (outcome !== null) return answerRefusal(req, res, outcome);
      app(req, res);
    };
    let outcome: GuardOutcome | Promise<GuardOutcome>;
    try {
      outcome = guard(req, res);
    } catch (error) {
      return answerRefusal(req, res, error);
    }
    if (outcome instanceof Promise) outcome.then(pass, (error) => answerRefusal(req, res, error));
    else pass(outcome);
  };

  let waiting: [IncomingMessage, ServerResponse, RowTarget][] = [];
  const answerWaiting = () => {
    const batch = waiting;
    waiting = [];
    changeTokens.shareBatch(() => batch.map(([req, res, target]) => handleRow(req, res, target)));
  };

  return (req, res) => {
    changeTokens.requestArrived();
    const target = rowTargetOf(req.url ?? '');
    if (target === null) return handleOther(req, res);
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (waiting.push([req, res, target]) === 1) setImmediate(answerWaiting);
      return;
    }
    void handleRow(req, res, target);
  };
}
