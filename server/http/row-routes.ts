import { type Request, Router } from 'express';
import type { ContentType } from '../content/content-type.js';
import { parseListQuery } from '../content/list-query.js';
import { PhaseTimer } from '../content/phase-timer.js';
import type {
  CreateRowResponse,
  DeleteRowResponse,
  GetRowResponse,
  ListResponse,
  UpdateRowResponse,
} from '../contract/api-contract.js';
import { methodNotAllowed } from './error-middleware.js';
import { sendTimed } from './send-timed.js';
import type { Services } from './services.js';

/** `/cms/:type` and `/cms/:type/:id`: list, read, create, update and delete rows. */
export function rowRoutes({ registry, rows }: Services): Router {
  const router = Router();
  const typeOf = (req: Request<{ type: string }>): ContentType => registry.requireByTable(req.params.type);
  const listShape = (type: ContentType) => ({
    pk: 'id' as const,
    columns: [...type.columns],
    filters: [] as never[],
    preview_path: type.previewPath,
    custom: type.custom,
  });

  router
    .route('/cms/:type')
    .get(async (req, res) => {
      const timer = new PhaseTimer();
      const type = typeOf(req);
      const options = parseListQuery(type, req.query);
      timer.lap('init');
      const list = await rows.list(type, options, timer);
      sendTimed(res, timer, (time): ListResponse => {
        const { pk, columns, filters, preview_path, custom } = listShape(type);
        return {
          time,
          total: list.total,
          filtered: list.filtered,
          count: list.rows.length,
          pk,
          rows: list.rows,
          columns,
          filters,
          preview_path,
          custom,
        };
      });
    })
    .post(async (req, res) => {
      const row = await rows.create(typeOf(req), req.body);
      const body: CreateRowResponse = { id: row.id, rows: [row] };
      res
        .status(201)
        .location(`${req.baseUrl}/cms/${req.params.type}/${encodeURIComponent(row.id)}`)
        .json(body);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/cms/:type/:id')
    .get(async (req, res) => {
      const timer = new PhaseTimer();
      const type = typeOf(req);
      timer.lap('init');
      const found = await rows.get(type, req.params.id, timer);
      sendTimed(res, timer, (time): GetRowResponse => {
        const { pk, columns, filters, preview_path, custom } = listShape(type);
        return {
          time,
          total: found.total,
          filtered: 1,
          count: 1,
          pk,
          rows: [found.row],
          columns,
          filters,
          preview_path,
          custom,
          meta: found.pageMeta,
        };
      });
    })
    .post(async (req, res) => {
      const row = await rows.create(typeOf(req), req.body, req.params.id);
      const body: CreateRowResponse = { id: row.id, rows: [row] };
      res
        .status(201)
        .location(`${req.baseUrl}/cms/${req.params.type}/${encodeURIComponent(row.id)}`)
        .json(body);
    })
    .put(async (req, res) => {
      const body: UpdateRowResponse = await rows.update(typeOf(req), req.params.id, req.body);
      res.json(body);
    })
    .patch(async (req, res) => {
      const body: UpdateRowResponse = await rows.update(typeOf(req), req.params.id, req.body);
      res.json(body);
    })
    .delete(async (req, res) => {
      const row = await rows.delete(typeOf(req), req.params.id);
      const body: DeleteRowResponse = { ...row, rowCount: 1 };
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));

  return router;
}
