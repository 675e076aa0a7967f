import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/** A guard's answer for a request it has already answered itself (a CORS preflight). */
export const ANSWERED = Symbol('answered');

/**
 * What a guard decides: null lets the request go on, ANSWERED means the guard has answered it, and
 * anything else is the refusal (an AppError, or whatever failed while deciding), which the error
 * mapping (`answerError`) turns into the answer.
 */
export type GuardOutcome = null | typeof ANSWERED | NonNullable<unknown>;

/**
 * A check every request passes before any route, over node's own request and response: it may set
 * response headers (CORS, a challenge), and answers at once unless it has to ask something first
 * (the auth guard's session lookup), then it returns a promise.
 */
export type Guard = (req: IncomingMessage, res: ServerResponse) => GuardOutcome | Promise<GuardOutcome>;

/**
 * Runs `guards` in order until one refuses or answers. Synchronous while every guard is, so a
 * request whose guards need nothing asked pays for no promise.
 */
export function runGuards(
  guards: readonly Guard[],
  req: IncomingMessage,
  res: ServerResponse,
  from = 0,
): GuardOutcome | Promise<GuardOutcome> {
  for (let i = from; i < guards.length; i++) {
    const outcome = guards[i](req, res);
    if (outcome instanceof Promise) {
      return outcome.then((settled) => (settled === null ? runGuards(guards, req, res, i + 1) : settled));
    }
    if (outcome !== null) return outcome;
  }
  return null;
}

/** The guards as one Express middleware: a refusal goes to the error middleware. */
export function guardMiddleware(guards: readonly Guard[]): RequestHandler {
  return (req, res, next) => {
    const decide = (outcome: GuardOutcome) => {
      if (outcome === null) next();
      else if (outcome !== ANSWERED) next(outcome);
    };
    const outcome = runGuards(guards, req, res);
    if (outcome instanceof Promise) outcome.then(decide, next);
    else decide(outcome);
  };
}

/** Adds `field` to the response's `Vary` header unless it is there already (or `*`). */
export function addVary(res: ServerResponse, field: string): void {
  const current = String(res.getHeader('Vary') ?? '');
  const names = current.split(',').map((name) => name.trim().toLowerCase());
  if (names.includes('*') || names.includes(field.toLowerCase())) return;
  res.setHeader('Vary', current ? `${current}, ${field}` : field);
}
