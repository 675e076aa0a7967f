import { Router } from 'express';
import { AppError } from '../errors/app-error.js';
import type { AssetService } from '../media/asset-service.js';
import { principalOf } from './auth-guard.js';
import { methodNotAllowed } from './error-middleware.js';
import { forceFlag } from './query-flags.js';

/**
 * `PUT /media/:id/file` (under `/api`): replaces an asset's file, keeping its path. A multipart
 * body, so it is mounted before the form and JSON parsers, beside `POST /uploads`.
 */
export function assetFileRoutes(assets: AssetService, maxBytes: number): Router {
  const router = Router();
  router
    .route('/media/:id/file')
    .put(async (req, res) => {
      noParameters(req.query);
      res.json(await assets.replace(req.params.id, req, maxBytes, principalOf(req)));
    })
    .all(methodNotAllowed(['PUT']));
  return router;
}

/**
 * The media library (under `/api`, after the body parsers and `GET /media/unused`): `GET /media`
 * lists and searches it, `GET /media/by-path?path=` reads the asset a row's value names, `GET`,
 * `PATCH` and `DELETE /media/:id` read, describe and delete one asset.
 */
export function assetRoutes(assets: AssetService): Router {
  const router = Router();
  router
    .route('/media')
    .get(async (req, res) => {
      res.json(await assets.list(req.query as Record<string, unknown>));
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/media/by-path')
    .get(async (req, res) => {
      res.json(await assets.getByPath(pathParameter(req.query as Record<string, unknown>), principalOf(req)));
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/media/:id')
    .get(async (req, res) => {
      noParameters(req.query);
      res.json(await assets.get(req.params.id, principalOf(req)));
    })
    .patch(async (req, res) => {
      noParameters(req.query);
      res.json(await assets.update(req.params.id, req.body, principalOf(req)));
    })
    .delete(async (req, res) => {
      const force = forceFlag(req.query as Record<string, unknown>);
      res.json(await assets.remove(req.params.id, force, principalOf(req)));
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));
  return router;
}

function noParameters(query: object): void {
  const names = Object.keys(query);
  if (names.length > 0) throw new AppError('bad_request', `Unknown query parameter ${JSON.stringify(names[0])}`);
}

/** `?path=/media/...`, given once and alone. */
function pathParameter(query: Record<string, unknown>): string {
  for (const name of Object.keys(query)) {
    if (name !== 'path') throw new AppError('bad_request', `Unknown query parameter ${JSON.stringify(name)}; use path`);
  }
  const value = query.path;
  if (value === undefined || value === '')
    throw new AppError('bad_request', 'path is required: /media/YYYY/MM/<id>.<ext>');
  if (typeof value !== 'string') throw new AppError('bad_request', 'path must be given once, as text');
  return value;
}
