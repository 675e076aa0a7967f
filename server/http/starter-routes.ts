import { Router } from 'express';
import type { StartersResponse } from '../../common/starter-contract.js';
import type { StarterService } from '../content/starter-service.js';
import { principalOf } from './auth-guard.js';
import { methodNotAllowed } from './error-middleware.js';

/**
 * `/starters`: the first run's starter sets. They name every content type and count its rows, and
 * choosing one changes types: the auth guard lets admins only (those who may change types) here.
 */
export function starterRoutes(starters: StarterService, editorName: string | null): Router {
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
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'POST']));
  return router;
}
