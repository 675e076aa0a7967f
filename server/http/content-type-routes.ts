import { type Request, type RequestHandler, Router } from 'express';
import type {
  ContentTypeListResponse,
  ContentTypeResponse,
  ContentTypeWriteResponse,
} from '../../common/api-contract.js';
import { type ContentType, summarize } from '../content/content-type.js';
import { parseListQuery } from '../content/list-query.js';
import { describedWithout, hiddenRelations, typesSeenBy } from '../content/relations.js';
import { staleWrite } from '../content/row-versions.js';
import { AppError } from '../errors/app-error.js';
import { requestActor } from './audit-actor.js';
import { principalOf } from './auth-guard.js';
import { perCredential, readableBy } from './describe-routes.js';
import { methodNotAllowed } from './error-middleware.js';
import { etagOf } from './etag.js';
import { ifMatchHolds, parseIfMatch } from './if-match.js';
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
      // Each carries its version as If-Match compares it: the tag of the type in full, not as this credential sees it.
      const types = typesSeenBy(registry, readableBy(req)).map((seen) => ({
        ...summarize(seen),
        version: typeTag(summarize(registry.requireBySlug(seen.slug))),
      }));
      const body: ContentTypeListResponse = { count: types.length, content_types: types };
      perCredential(res).json(body);
    })
    .post(onlyQuery(), async (req, res) => {
      const body: ContentTypeWriteResponse = await contentTypes.create(withJsonFields(req.body), actorName(req));
      await recorded(req, 'content_type.created', body);
      res.setHeader('ETag', typeTag(body));
      res.status(201).location(`${req.baseUrl}/cms-content/${body.slug}`).json(body);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/cms-content/:slug')
    .get(async (req, res) => {
      const type = await typeBySlug(services, req.params.slug);
      const readable = readableBy(req);
      const hidden = hiddenRelations(type, registry, readable);
      const options = parseListQuery(type, req.query, registry, hidden, services.locales.document);
      const list = await rows.list(type, options, undefined, readable);
      const { preview_path: _previewPath, ...description } = summarize(describedWithout(type, hidden));
      const body: ContentTypeResponse = { ...description, rows: list.rows };
      res.json(body);
    })
    .put(onlyQuery(), async (req, res) => {
      const body: ContentTypeWriteResponse = await conditionally(services, req, req.params.slug, (check) =>
        contentTypes.update(req.params.slug, withJsonFields(req.body), actorName(req), check),
      );
      await recorded(req, 'content_type.changed', body);
      res.setHeader('ETag', typeTag(body));
      res.json(body);
    })
    .delete(onlyQuery('force'), async (req, res) => {
      const force = req.query.force === 'true' || req.query.force === '1';
      const body: ContentTypeWriteResponse = await conditionally(services, req, req.params.slug, (check) =>
        contentTypes.delete(req.params.slug, force, actorName(req), check),
      );
      await recorded(req, 'content_type.deleted', body, { force });
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'PUT', 'DELETE']));

  return router;
}

/**
 * A content type's version as a strong ETag: a hash of its description as its write answers it
 * (title, slug, columns, preview path). The answers of its create and change carry it, as do the
 * list's entries (`version`); `If-Match` on its change and delete compares it.
 */
export function typeTag(summary: ContentTypeWriteResponse): string {
  return etagOf(JSON.stringify(summary));
}

/**
 * A content-type change or delete under its `If-Match`: checked when the change's turn comes (one
 * change at a time), against the type as it is then; a stale tag is a 412 `stale_write` with the
 * type as it is now, its tag and its last change, and nothing changes.
 */
async function conditionally<T>(
  services: Services,
  req: Request,
  slug: string,
  change: (check?: (type: ContentType) => void) => Promise<T>,
): Promise<T> {
  const condition = parseIfMatch(req.headers['if-match']);
  if (condition === null) return change();
  let now: ContentType | null = null;
  try {
    return await change((type) => {
      if (ifMatchHolds(condition, typeTag(summarize(type)))) return;
      now = type;
      throw staleWrite();
    });
  } catch (error) {
    if (!(error instanceof AppError) || (error.code !== 'stale_write' && error.code !== 'not_found')) throw error;
    const current = now ?? services.registry.findBySlug(slug) ?? null;
    if (error.code === 'not_found' && current) throw error;
    const [last] = (await services.revisions.typeChanges(slug, { limit: 1, offset: 0 })).changes;
    const stale = staleWrite();
    const summary = current ? summarize(current) : null;
    stale.stale = {
      current: summary,
      etag: summary ? typeTag(summary) : null,
      lastChange: last ? { action: last.action, by: last.by, at: last.at, fields: Object.keys(last.detail) } : null,
    };
    throw stale;
  }
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
