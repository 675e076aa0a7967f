import { type Request, type RequestHandler, Router } from 'express';
import type {
  ContentTypeListResponse,
  ContentTypeResponse,
  ContentTypeWriteResponse,
} from '../../common/api-contract.js';
import { summarize } from '../content/content-type.js';
import { parseListQuery } from '../content/list-query.js';
import { describedWithout, hiddenRelations, typesSeenBy } from '../content/relations.js';
import { AppError } from '../errors/app-error.js';
import { requestActor } from './audit-actor.js';
import { principalOf } from './auth-guard.js';
import { perCredential, readableBy } from './describe-routes.js';
import { methodNotAllowed } from './error-middleware.js';
import { type Services, typeBySlug } from './services.js';
import { parseJsonField } from './untrusted-input.js';

/** `/cms-content`: the content types and their descriptions. */
export function contentTypeRoutes(services: Services): Router {
  const { registry, rows, contentTypes, audit } = services;
  // Content-type changes are security events too: who reshaped or dropped a table, from where.
  const recorded = async (req: Request, action: string, body: ContentTypeWriteResponse, detail = {}) =>
    audit?.record({ ...requestActor(req), action, target: body.slug, detail: { title: body.title, ...detail } });
  const router = Router();

  router
    .route('/cms-content')
    .get(onlyQuery(), async (req, res) => {
      await registry.follow();
      // A type-limited credential is told of its own types only, and not where their relations lead outside them.
      const types = typesSeenBy(registry, readableBy(req)).map(summarize);
      const body: ContentTypeListResponse = { count: types.length, content_types: types };
      perCredential(res).json(body);
    })
    .post(onlyQuery(), async (req, res) => {
      const body: ContentTypeWriteResponse = await contentTypes.create(withJsonFields(req.body), actorName(req));
      await recorded(req, 'content_type.created', body);
      res.status(201).location(`${req.baseUrl}/cms-content/${body.slug}`).json(body);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/cms-content/:slug')
    .get(async (req, res) => {
      const type = await typeBySlug(services, req.params.slug);
      const readable = readableBy(req);
      const hidden = hiddenRelations(type, registry, readable);
      const options = parseListQuery(type, req.query, registry, hidden);
      const list = await rows.list(type, options, undefined, readable);
      const { preview_path: _previewPath, ...description } = summarize(describedWithout(type, hidden));
      const body: ContentTypeResponse = { ...description, rows: list.rows };
      res.json(body);
    })
    .put(onlyQuery(), async (req, res) => {
      const body: ContentTypeWriteResponse = await contentTypes.update(
        req.params.slug,
        withJsonFields(req.body),
        actorName(req),
      );
      await recorded(req, 'content_type.changed', body);
      res.json(body);
    })
    .delete(onlyQuery('force'), async (req, res) => {
      const force = req.query.force === 'true' || req.query.force === '1';
      const body: ContentTypeWriteResponse = await contentTypes.delete(req.params.slug, force, actorName(req));
      await recorded(req, 'content_type.deleted', body, { force });
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'PUT', 'DELETE']));

  return router;
}

/** Who changes a content type, for its change log. */
function actorName(req: Request): string | null {
  return principalOf(req)?.name ?? null;
}

/**
 * A content-type body with `columns` sent as JSON text (a form field, or a JSON string member)
 * parsed, under exactly the limits a JSON body has; the service sees the same value either way.
 */
function withJsonFields(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { columns } = body as { columns?: unknown };
  if (typeof columns !== 'string') return body;
  const parsed = parseJsonField(columns, 'columns');
  if (!parsed.ok) throw parsed.error;
  return { ...body, columns: parsed.value };
}

/**
 * Refuses query parameters a route does not take, as list reads do: a misspelt `force` or a list
 * parameter sent to the type list would otherwise be silently ignored. `_`, the usual cache-buster
 * of HTTP clients, is accepted everywhere. (`GET /cms-content/:slug` checks its own in parseListQuery.)
 */
export function onlyQuery(...names: string[]): RequestHandler {
  const allowed = new Set([...names, '_']);
  return (req, _res, next) => {
    const unknown = Object.keys(req.query).find((name) => !allowed.has(name));
    if (unknown === undefined) return next();
    const hint = names.length === 0 ? `${req.method} here takes none` : `use ${names.join(', ')}`;
    next(new AppError('bad_request', `Unknown query parameter ${JSON.stringify(unknown)}; ${hint}`));
  };
}
