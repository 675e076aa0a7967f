import { type Request, type Response, Router } from 'express';
import type {
  CreateRowResponse,
  DeleteRowResponse,
  GetRowResponse,
  ListResponse,
  Timing,
  UpdateRowResponse,
} from '../../common/api-contract.js';
import type { ContentType } from '../content/content-type.js';
import { parseListQuery } from '../content/list-query.js';
import { PhaseTimer } from '../content/phase-timer.js';
import { describedWithout, hiddenRelations } from '../content/relations.js';
import type { RowActor, RowList } from '../content/row-service.js';
import { rowActor } from './auth-guard.js';
import { readableBy } from './describe-routes.js';
import { methodNotAllowed } from './error-middleware.js';
import { sendTimed, type TimedRead } from './send-timed.js';
import { readWithType, type Services, writeWithType } from './services.js';

/** `/cms/:type` and `/cms/:type/:id`: list, read, create, update and delete rows. */
export function rowRoutes(services: Services): Router {
  const { rows } = services;
  const router = Router();
  const update = async (req: Request<{ type: string; id: string }>, res: Response) => {
    res.json(await updateRow(services, req.params.type, req.params.id, req.body, rowActor(req)));
  };
  const create = async (req: Request<{ type: string; id?: string }>, res: Response) => {
    const { type, id } = req.params;
    const created = await createRow(services, type, id, req.body, rowActor(req));
    res.status(201).location(created.location).json(created.body);
  };

  router
    .route('/cms/:type')
    .get(async (req, res) => sendTimed(res, await readList(services, req.params.type, req.query, readableBy(req))))
    .post(create)
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/cms/:type/:id')
    .get(async (req, res) => sendTimed(res, await readRow(services, req.params.type, req.params.id, readableBy(req))))
    .post(create)
    .put(update)
    .patch(update)
    .delete(async (req, res) => {
      const row = await writeWithType(services, req.params.type, (type) =>
        rows.delete(type, req.params.id, rowActor(req)),
      );
      const body: DeleteRowResponse = { ...row, rowCount: 1 };
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));

  return router;
}

/**
 * `POST /cms/:type[/:id]` (also served by the fast write path): the new row, for a 201 with its
 * address in `Location`.
 */
export async function createRow(
  services: Services,
  table: string,
  id: string | undefined,
  input: unknown,
  actor: RowActor | undefined,
): Promise<{ body: CreateRowResponse; location: string }> {
  const row = await writeWithType(services, table, (type) => services.rows.create(type, input, id, actor));
  return { body: { id: row.id, rows: [row] }, location: `/api/cms/${table}/${encodeURIComponent(row.id)}` };
}

/** `PUT`/`PATCH /cms/:type/:id` (also served by the fast write path): the changed row. */
export function updateRow(
  services: Services,
  table: string,
  id: string,
  input: unknown,
  actor: RowActor | undefined,
): Promise<UpdateRowResponse> {
  return writeWithType(services, table, (type) => services.rows.update(type, id, input, actor));
}

/**
 * `GET /cms/:type`: a page of rows with exact counts (also served by the fast read path), as a
 * credential limited to `readable` content types sees it (null: every type; see `hiddenRelations`).
 */
export async function readList(
  services: Services,
  table: string,
  query: Record<string, unknown>,
  readable: readonly string[] | null = null,
): Promise<TimedRead<ListResponse>> {
  const { type, list, timer } = await readWithType(services, table, async (type) => {
    const timer = new PhaseTimer();
    const hidden = hiddenRelations(type, services.registry, readable);
    const options = parseListQuery(type, query, services.registry, hidden);
    timer.lap('init');
    const list = await services.rows.list(type, options, timer, readable);
    return { type: describedWithout(type, hidden), list, timer, registry: list.registry };
  });
  const time = timer.result();
  return { body: listResponse(type, time, list), serverTiming: PhaseTimer.header(time) };
}

/** `GET /cms/:type/:id`: one row in the list shape plus its page meta (also served by the fast read path), as `readList`. */
export async function readRow(
  services: Services,
  table: string,
  id: string,
  readable: readonly string[] | null = null,
): Promise<TimedRead<GetRowResponse>> {
  const { type, found, timer } = await readWithType(services, table, async (type) => {
    const timer = new PhaseTimer();
    timer.lap('init');
    const found = await services.rows.get(type, id, timer, readable);
    const hidden = hiddenRelations(type, services.registry, readable);
    return { type: describedWithout(type, hidden), found, timer, registry: found.registry };
  });
  const time = timer.result();
  const body: GetRowResponse = {
    ...listResponse(type, time, { rows: [found.row], total: found.total, filtered: 1 }),
    meta: found.pageMeta,
  };
  return { body, serverTiming: PhaseTimer.header(time) };
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
    columns: [...type.publishedColumns],
    filters: [],
    preview_path: type.previewPath,
    custom: type.custom,
  };
}
