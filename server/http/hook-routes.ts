import { Router } from 'express';
import type {
  HookCreatedResponse,
  HookDelivery,
  HookDeliveryListResponse,
  HookListResponse,
  HookSummary,
} from '../../common/publishing-contract.js';
import type { AuditService } from '../audit/audit-service.js';
import { AppError } from '../errors/app-error.js';
import type { HookService } from '../hooks/hook-service.js';
import { requestActor } from './audit-actor.js';
import { principalOf } from './auth-guard.js';
import { methodNotAllowed } from './error-middleware.js';

/** Deliveries shown per page when none is asked for, and the most. */
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/**
 * `/hooks...`: build hooks and their delivery logs (admins only: the auth guard refuses everyone
 * else before these run). A hook's secret is in the answer that creates it, never again. Creating,
 * changing and deleting a hook is recorded in the audit log.
 */
export function hookRoutes(hooks: HookService, editorName: string | null, audit: AuditService): Router {
  const router = Router();
  const who = (req: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(req);
    return principal ? principal.name : editorName;
  };

  router
    .route('/hooks')
    .get(async (_req, res) => {
      const body: HookListResponse = await hooks.list();
      res.json(body);
    })
    .post(async (req, res) => {
      const body: HookCreatedResponse = await hooks.create(req.body, who(req));
      await audit.record({ ...requestActor(req), action: 'hook.created', target: body.id, detail: hookFacts(body) });
      res
        .status(201)
        .location(`${req.baseUrl}/hooks/${encodeURIComponent(body.id)}`)
        .json(body);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/hooks/:id')
    .get(async (req, res) => {
      const body: HookSummary = await hooks.get(req.params.id);
      res.json(body);
    })
    .patch(async (req, res) => {
      const body: HookSummary = await hooks.change(req.params.id, req.body);
      await audit.record({
        ...requestActor(req),
        action: 'hook.changed',
        target: body.id,
        detail: { ...hookFacts(body), changed: Object.keys(req.body ?? {}).sort() },
      });
      res.json(body);
    })
    .delete(async (req, res) => {
      const before = await hooks.get(req.params.id);
      const body = await hooks.remove(req.params.id);
      await audit.record({ ...requestActor(req), action: 'hook.deleted', target: body.id, detail: hookFacts(before) });
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  router
    .route('/hooks/:id/deliveries')
    .get(async (req, res) => {
      const body: HookDeliveryListResponse = await hooks.deliveries(
        req.params.id,
        bounded(req.query.limit, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT),
        bounded(req.query.offset, 'offset', 0, 0, 1e9),
      );
      res.json(body);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/hooks/:id/test')
    .post(async (req, res) => {
      const body: HookDelivery = await hooks.test(req.params.id, who(req));
      res.json(body);
    })
    .all(methodNotAllowed(['POST']));

  return router;
}

/** A whole number from the query within [min, max], else a 400. */
function bounded(raw: unknown, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new AppError('bad_request', `${name} must be a whole number from ${min} to ${max}`);
  return value;
}

/**
 * What the audit log keeps of a hook: where it delivers (the URL's origin only: a build hook's
 * path or query often is its credential), what it receives, and whether it signs.
 */
function hookFacts(hook: HookSummary): Record<string, unknown> {
  let origin: string | null = null;
  try {
    origin = new URL(hook.url).origin;
  } catch {
    // A URL the hook service accepted always parses; none is recorded otherwise.
  }
  return { origin, content_types: hook.content_types, actions: hook.actions, signed: hook.has_secret };
}
