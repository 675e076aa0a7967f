import { type Request, Router } from 'express';
import { typeAllowed } from '../../common/access-rules.js';
import type { TypeChangeListResponse } from '../../common/revision-contract.js';
import type { Page } from '../db/repositories/revision-repository.js';
import { AppError } from '../errors/app-error.js';
import type { RevisionService } from '../revisions/revision-service.js';
import { principalOf, rowActor } from './auth-guard.js';
import { readableBy } from './describe-routes.js';
import { methodNotAllowed } from './error-middleware.js';
import { type Services, typeByTable } from './services.js';

/** Page size when none is asked for, and the largest one given. */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/**
 * A row's revisions, the trash and the content-type change log. Mounted before the row
 * routes, so `/cms/:type/trash` is the trash, not a row with the id `trash`.
 */
export function revisionRoutes(services: Services, revisions: RevisionService): Router {
  const router = Router();
  const typeOf = (req: Request<{ type: string }>) => typeByTable(services, req.params.type);
  // Rows of a localized type are read in `?locale=` (see parseLocaleParameter).
  const localeOf = (req: Request) => services.locales.parameter(req.query.locale);

  router
    .route('/cms/:type/trash')
    .get(async (req, res) => res.json(await revisions.trash(await typeOf(req), pageOf(req.query))))
    .all(methodNotAllowed(['GET']));

  router
    .route('/cms/:type/trash/:id/restore')
    .post(async (req, res) =>
      res.json(await revisions.restoreFromTrash(await typeOf(req), req.params.id, rowActor(req), await localeOf(req))),
    )
    .all(methodNotAllowed(['POST']));

  router
    .route('/cms/:type/:id/revisions')
    .get(async (req, res) => res.json(await revisions.list(await typeOf(req), req.params.id, pageOf(req.query))))
    .all(methodNotAllowed(['GET']));

  router
    .route('/cms/:type/:id/revisions/:rev')
    .get(async (req, res) =>
      res.json(
        await revisions.get(
          await typeOf(req),
          req.params.id,
          revisionNumber(req.params.rev),
          readableBy(req),
          await localeOf(req),
        ),
      ),
    )
    .all(methodNotAllowed(['GET']));

  router
    .route('/cms/:type/:id/revisions/:rev/restore')
    .post(async (req, res) => {
      const type = await typeOf(req);
      const locale = await localeOf(req);
      res.json(await revisions.restore(type, req.params.id, revisionNumber(req.params.rev), rowActor(req), locale));
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/cms-content-changes')
    .get(async (req, res) => {
      const slug = typeof req.query.type === 'string' && req.query.type !== '' ? req.query.type : null;
      // No type's slug holds a NUL, and PostgreSQL cannot even compare one.
      if (slug?.includes('\u0000')) throw new AppError('bad_request', 'type must be a content type’s slug');
      // A credential limited to some content types reads the changes of one of them only.
      const limit = principalOf(req)?.types ?? null;
      if (limit !== null) {
        const type = slug === null ? undefined : services.registry.findBySlug(slug);
        if (slug === null || !typeAllowed(limit, type ?? { table: slug, slug })) {
          throw new AppError(
            'forbidden',
            'This credential is limited to some content types: name one of them with ?type=',
          );
        }
      }
      const body: TypeChangeListResponse = await revisions.typeChanges(slug, pageOf(req.query));
      res.json(body);
    })
    .all(methodNotAllowed(['GET']));

  return router;
}

/** `limit` (1 to 100, default 20) and `offset` (default 0) from a query; anything else is a 400. */
export function pageOf(query: Record<string, unknown>): Page {
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    const value = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(value >= min && value <= max)) {
      throw new AppError('bad_request', `${name} must be a whole number from ${min} to ${max}`);
    }
    return value;
  };
  return { limit: number('limit', DEFAULT_LIMIT, 1, MAX_LIMIT), offset: number('offset', 0, 0, 1e9) };
}

/** A revision number from the path; anything else names no revision (404). */
function revisionNumber(raw: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new AppError('not_found', `There is no revision ${JSON.stringify(raw)}`);
  return Number(raw);
}
