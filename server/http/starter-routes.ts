import { Router } from 'express';
import type { StartersResponse } from '../../common/starter-contract.js';
import type { AuditService } from '../audit/audit-service.js';
import type { StarterService } from '../content/starter-service.js';
import { requestActor } from './audit-actor.js';
import { principalOf } from './auth-guard.js';
import { methodNotAllowed } from './error-middleware.js';

/**
 * `/starters`: the first run's starter sets. They name every content type and count its rows, and
 * choosing one changes types: the auth guard lets admins only (those who may change types) here.
 * A choice is recorded in the audit log (it adds and removes content types).
 */
export function starterRoutes(starters: StarterService, editorName: string | null, audit: AuditService): Router {
  const router = Router();
  router
    .route('/starters')
    .get(async (_req, res) => {
      const body: StartersResponse = await starters.state();
      res.json(body);
    })
    .post(async (req, res) => {
      const principal = principalOf(req);
      const body: StartersResponse = await starters.choose(req.body, principal ? principal.name : editorName);
      await audit.record({
        ...requestActor(req),
        action: 'content_type.starters_chosen',
        target: body.choice,
        detail: { types: body.starters.map((starter) => starter.table) },
      });
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'POST']));
  return router;
}
