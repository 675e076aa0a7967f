import { type Request, Router } from 'express';
import type { AuditListResponse } from '../../common/audit-contract.js';
import { normalizeDate, parseWallTime, toWireDatetime } from '../../common/datetime-syntax.js';
import type { AuditService } from '../audit/audit-service.js';
import type { AuditFilter } from '../db/repositories/audit-repository.js';
import { AppError } from '../errors/app-error.js';
import { methodNotAllowed } from './error-middleware.js';
import { pageOf } from './revision-routes.js';

/** The query members `GET /audit` takes. */
const QUERY_MEMBERS = new Set(['action', 'actor', 'target', 'since', 'until', 'limit', 'offset']);

/**
 * `GET /audit`: the audit log, newest first, for admins whose credential covers every content type
 * (the auth guard refuses everyone else with a 403).
 */
export function auditRoutes(audit: AuditService): Router {
  const router = Router();
  router
    .route('/audit')
    .get(async (req, res) => {
      const body: AuditListResponse = await audit.list(filterOf(req), pageOf(req.query));
      res.json(body);
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

/** The filters of a query; an unknown member or a time that is none is a 400. */
function filterOf(req: Request): AuditFilter {
  const query = req.query as Record<string, unknown>;
  const unknown = Object.keys(query).find((name) => !QUERY_MEMBERS.has(name));
  if (unknown !== undefined) {
    throw new AppError(
      'bad_request',
      `Unknown query parameter ${JSON.stringify(unknown)}: the audit log takes ${[...QUERY_MEMBERS].join(', ')}`,
    );
  }
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw new AppError('bad_request', `${name} must be given once, as text`);
    return value;
  };
  const filter: AuditFilter = {};
  for (const name of ['action', 'actor', 'target'] as const) {
    const value = text(name);
    if (value !== undefined) filter[name] = value;
  }
  const since = text('since');
  if (since !== undefined) filter.since = timestampOf(since, 'since', '00:00:00.000000', '.000000');
  const until = text('until');
  if (until !== undefined) filter.until = timestampOf(until, 'until', '23:59:59.999999', '.999999');
  return filter;
}

/**
 * A query's time as a server timestamp (UTC): a date covers its whole day, a datetime its whole
 * second (`dayEdge` and `secondEdge` say which end), so `since` and `until` are both inclusive.
 */
function timestampOf(value: string, name: string, dayEdge: string, secondEdge: string): string {
  const date = normalizeDate(value);
  if (date !== null) return `${date} ${dayEdge}`;
  const time = parseWallTime(value);
  if (time !== null) return `${toWireDatetime(time)}${secondEdge}`;
  throw new AppError(
    'bad_request',
    `${name} must be a date (YYYY-MM-DD) or a UTC date and time (YYYY-MM-DD HH:MM:SS), not ${JSON.stringify(value)}`,
  );
}
