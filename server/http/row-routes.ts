import { type Request, type Response, Router } from 'express';
import type { ContentType } from '../content/content-type.js';
import { parseListQuery } from '../content/list-query.js';
import { PhaseTimer } from '../content/phase-timer.js';
import type { RowList } from '../content/row-service.js';
import type {
  ContentRow,
  CreateRowResponse,
  DeleteRowResponse,
  GetRowResponse,
  ListResponse,
  Timing,
  UpdateRowResponse,
} from '../contract/api-contract.js';
import { methodNotAllowed } from './error-middleware.js';
import { sendTimed } from './send-timed.js';
import type { Services } from './services.js';

/** `/cms/:type` and `/cms/:type/:id`: list, read, create, update and delete rows. */
export function rowRoutes({ registry, rows }: Services): Router {
  const router = Router();
  const typeOf = (req: Request<{ type: string }>): ContentType => registry.requireByTable(req.params.type);
  const update = async (req: Request<{ type: string; id: string }>, res: Response) => {
    const body: UpdateRowResponse = await rows.update(typeOf(req), req.params.id, req.body);
    res.json(body);
  };

  router
    .route('/cms/:type')
    .get(async (req, res) => {
      const timer = new PhaseTimer();
      const type = typeOf(req);
      const options = parseListQuery(type, req.query);
      timer.lap('init');
      const list = await rows.list(type, options, timer);
      sendTimed(res, timer, (time) => listResponse(type, time, list));
    })
    .post(async (req, res) => sendCreated(req, res, await rows.create(typeOf(req), req.body)))
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/cms/:type/:id')
    .get(async (req, res) => {
      const timer = new PhaseTimer();
      const type = typeOf(req);
      timer.lap('init');
      const found = await rows.get(type, req.params.id, timer);
      sendTimed(
        res,
        timer,
        (time): GetRowResponse => ({
          ...listResponse(type, time, { rows: [found.row], total: found.total, filtered: 1 }),
          meta: found.pageMeta,
        }),
      );
    })
    .post(async (req, res) => sendCreated(req, res, await rows.create(typeOf(req), req.body, req.params.id)))
    .put(update)
    .patch(update)
    .delete(async (req, res) => {
      const row = await rows.delete(typeOf(req), req.params.id);
      const body: DeleteRowResponse = { ...row, rowCount: 1 };
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));

  return router;
}

/** 201 with the new row and its address in `Location`. */
function sendCreated(req: Request<{ type: string }>, res: Response, row: ContentRow): void {
  const body: CreateRowResponse = { id: row.id, rows: [row] };
  res
    .status(201)
    .location(`${req.baseUrl}/cms/${req.params.type}/${encodeURIComponent(row.id)}`)
    .json(body);
}

/** The list shape shared by the list and single-row reads, fields in the spec's order. */
function listResponse(type: ContentType, time: Timing, list: RowList): ListResponse {
  return {
    time,
    total: list.total,
    filtered: list.filtered,
    count: list.rows.length,
    pk: 'id',
    rows: list.rows,
    columns: [...type.columns],
    filters: [],
    preview_path: type.previewPath,
    custom: type.custom,
  };
}
