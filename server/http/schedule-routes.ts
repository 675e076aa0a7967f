import { Router } from 'express';
import type { ScheduleResponse } from '../../common/publishing-contract.js';
import type { ScheduleService } from '../schedule/schedule-service.js';
import { rowActor } from './auth-guard.js';
import { methodNotAllowed } from './error-middleware.js';
import { type Services, typeByTable } from './services.js';

/** `/cms/:type/:id/schedule`: a row's pending status change. */
export function scheduleRoutes(services: Services, schedules: ScheduleService): Router {
  const router = Router();
  router
    .route('/cms/:type/:id/schedule')
    .get(async (req, res) => {
      const type = await typeByTable(services, req.params.type);
      // The row must exist (a 404 otherwise), like its other addresses.
      await services.rows.get(type, req.params.id);
      const body: ScheduleResponse = { id: req.params.id, schedule: await schedules.pending(type, req.params.id) };
      res.json(body);
    })
    .post(async (req, res) => {
      const type = await typeByTable(services, req.params.type);
      const body: ScheduleResponse = await schedules.schedule(type, req.params.id, req.body, rowActor(req));
      res.json(body);
    })
    .delete(async (req, res) => {
      const type = await typeByTable(services, req.params.type);
      const body: ScheduleResponse = await schedules.cancel(type, req.params.id, rowActor(req));
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'POST', 'DELETE']));
  return router;
}
