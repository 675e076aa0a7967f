import { Router } from 'express';
import { summarize } from '../content/content-type.js';
import { parseListQuery } from '../content/list-query.js';
import type { ContentTypeListResponse, ContentTypeResponse } from '../contract/api-contract.js';
import { methodNotAllowed } from './error-middleware.js';
import type { Services } from './services.js';

/** `/cms-content`: the content types and their descriptions. */
export function contentTypeRoutes({ registry, rows }: Services): Router {
  const router = Router();

  router
    .route('/cms-content')
    .get((_req, res) => {
      const contentTypes = registry.list().map(summarize);
      const body: ContentTypeListResponse = { count: contentTypes.length, content_types: contentTypes };
      res.json(body);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/cms-content/:slug')
    .get(async (req, res) => {
      const type = registry.requireBySlug(req.params.slug);
      const options = parseListQuery(type, req.query);
      const list = await rows.list(type, options);
      const { preview_path: _previewPath, ...description } = summarize(type);
      const body: ContentTypeResponse = { ...description, rows: list.rows };
      res.json(body);
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
