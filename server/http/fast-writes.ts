import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { rowActor } from './auth-guard.js';
import { answerError, type ErrorMiddlewareOptions, writeJson } from './error-middleware.js';
import { passGuards } from './fast-path-guards.js';
import { createRow, updateRow } from './row-routes.js';
import type { Services } from './services.js';

/** What the fast write path shares with the Express app it stands in front of. */
export interface FastWriteOptions {
  /** The server's guards, in order (localhost guards, then the API's: who is asking, may they). */
  guards: readonly RequestHandler[];
  /** The API's body parsers (`bodyParsers`), the same instances Express runs. */
  parsers: readonly RequestHandler[];
  /** Where unexpected errors are reported (the error middleware's log). */
  log: ErrorMiddlewareOptions['log'];
}

/** A row write the fast path answers: its method, type and row id (none for a create without one). */
export interface RowWrite {
  method: 'POST' | 'PUT' | 'PATCH';
  table: string;
  id: string | undefined;
}

/**
 * The row write `POST /api/cms/:type[/:id]`, `PUT` or `PATCH /api/cms/:type/:id` names (already
 * split by the fast path's pattern, the trash left to Express), or null for anything else, which
 * Express answers: other methods, `PUT`/`PATCH` without an id, and a path segment that is not valid
 * percent-encoding (Express's own 400).
 */
export function rowWriteOf(method: string | undefined, rawType: string, rawId: string | undefined): RowWrite | null {
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return null;
  if (rawId === undefined && method !== 'POST') return null;
  try {
    return {
      method,
      table: decodeURIComponent(rawType),
      id: rawId === undefined ? undefined : decodeURIComponent(rawId),
    };
  } catch {
    return null;
  }
}

/**
 * A create or update answered in front of Express, as the row routes answer it: measured, Express
 * 5's router and request objects cost more than twice a create's own work on the server's thread
 * (a bare Express POST route with the body parsers tops out near 6,000 req/s on the bench machine,
 * node:http with the same parsers near 21,000). The same guards run first (on views, as for the
 * hot reads), then the same body parsers on the raw request, the same `createRow` / `updateRow`,
 * and the same error answer (`answerError`) for anything that fails.
 *
 * Resolves to false, having read nothing of the body, when Express must answer instead: a guard
 * refused or needed Express. Once the body is being read, every outcome is answered here.
 */
export async function fastWrite(
  services: Services,
  options: FastWriteOptions,
  write: RowWrite,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  try {
    // Security headers are set by their guard here (a write is not worth the hot reads' merge).
    await passGuards(options.guards, req, res);
  } catch {
    // Refused, or a guard needed Express (NeedsExpress): Express runs the guards again and answers.
    return false;
  }
  try {
    await runParsers(options.parsers, req, res);
    const input = (req as { body?: unknown }).body;
    const actor = rowActor(req);
    if (write.method === 'POST') {
      const created = await createRow(services, write.table, write.id, input, actor);
      res.setHeader('Location', created.location);
      writeJson(res, 201, created.body);
    } else {
      writeJson(res, 200, await updateRow(services, write.table, write.id as string, input, actor));
    }
  } catch (error) {
    answerError(error, req, res, options.log);
  }
  return true;
}

/** Runs Express middleware that never needs Express's request (the body parsers) on the raw one. */
async function runParsers(parsers: readonly RequestHandler[], req: IncomingMessage, res: ServerResponse) {
  const asExpress = [req, res] as unknown as Parameters<RequestHandler>;
  for (const parser of parsers) {
    await new Promise<void>((resolve, reject) => {
      parser(asExpress[0], asExpress[1], (error?: unknown) => (error === undefined ? resolve() : reject(error)));
    });
  }
}
