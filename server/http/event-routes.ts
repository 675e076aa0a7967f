import type { IncomingMessage } from 'node:http';
import { type Request, Router } from 'express';
import { typeAllowed } from '../../common/access-rules.js';
import type { Principal } from '../accounts/principal.js';
import { MEDIA_CHANGE_TYPE, seesMediaChanges } from '../changes/change-feed.js';
import type { EventHub } from '../changes/event-streams.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import { AppError } from '../errors/app-error.js';
import { principalOf } from './auth-guard.js';
import { methodNotAllowed } from './error-middleware.js';

/** What `GET /events` needs. */
export interface EventRouteOptions {
  hub: EventHub;
  registry: Pick<ContentTypeRegistry, 'findByTable' | 'findBySlug'>;
  /** Whether a request's credential still holds, asked again while its stream is open (see `credentialCheck`). */
  credentialHolds: (req: IncomingMessage) => Promise<boolean>;
}

/** The query members `GET /events` takes. */
const QUERY_MEMBERS = new Set(['types', 'since']);

/**
 * The head of an event stream. Nothing between the server and the client may hold the stream back
 * or keep a copy: `no-cache` and `X-Accel-Buffering: no` tell caches and nginx-like proxies so.
 */
const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};

/**
 * `GET /events[?types=a,b][&since=CURSOR]`: the change feed as Server-Sent Events (see
 * event-streams.ts). `Last-Event-ID` (a reconnecting EventSource sends it) or `since` resumes after
 * a cursor; a cursor the feed refuses is its JSON error (400, 410) before the stream starts, and
 * more streams than the limits allow a 429.
 */
export function eventRoutes(options: EventRouteOptions): Router {
  const router = Router();
  router
    .route('/events')
    .get(async (req, res) => {
      const accepts = typeFilterOf(options.registry, req, principalOf(req));
      const since = sinceOf(req);
      if (req.method === 'HEAD') {
        res.writeHead(200, STREAM_HEADERS).end();
        return;
      }
      // Events go out as they are written, each in its own packet.
      req.socket.setNoDelay(true);
      await options.hub.open({
        credential: credentialKey(principalOf(req)),
        accepts,
        since,
        sink: res,
        stillValid: () => options.credentialHolds(req),
        start: () => {
          res.writeHead(200, STREAM_HEADERS);
          res.flushHeaders();
        },
      });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

/** Whose streams count together against the per-credential limit: one session, one token, the local user. */
export function credentialKey(principal: Principal | null): string {
  if (principal === null) return 'anonymous';
  if (principal.via === 'session') return `session:${principal.sessionId ?? principal.name ?? ''}`;
  return `${principal.via}:${principal.name ?? ''}`;
}

/** A query member given once as text, or undefined. */
function queryText(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new AppError('bad_request', `${name} must be given once, as text`);
  return value;
}

/** Where the stream resumes: `Last-Event-ID` (the newer of the two on a reconnect), else `since`, else now. */
function sinceOf(req: Request): string | null {
  const unknown = Object.keys(req.query as object).find((name) => !QUERY_MEMBERS.has(name));
  if (unknown !== undefined) {
    throw new AppError(
      'bad_request',
      `Unknown query parameter ${JSON.stringify(unknown)}: events take ${[...QUERY_MEMBERS].join(', ')}`,
    );
  }
  const header = lastEventId(req);
  return header ?? queryText(req, 'since') ?? null;
}

function lastEventId(req: IncomingMessage): string | undefined {
  const value = req.headers['last-event-id'];
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() || undefined;
}

/**
 * Which types' changes a stream takes: those `?types=` names (tables or slugs of existing types), of
 * those the credential may read. Naming a type the credential may not read is a 403, as reading its
 * rows would be.
 */
function typeFilterOf(
  registry: EventRouteOptions['registry'],
  req: Request,
  principal: Principal | null,
): (table: string) => boolean {
  const limit = principal?.types ?? null;
  const mayRead = (table: string): boolean => {
    if (table === MEDIA_CHANGE_TYPE) return seesMediaChanges(limit);
    const type = registry.findByTable(table);
    return type ? typeAllowed(limit, type) : limit === null || limit.includes(table);
  };
  const named = queryText(req, 'types');
  if (named === undefined) {
    if (limit === null) return () => true;
    // Types made after the stream opened are judged when their first change comes.
    const judged = new Map<string, boolean>();
    return (table) => {
      const known = judged.get(table);
      if (known !== undefined) return known;
      const allowed = mayRead(table);
      judged.set(table, allowed);
      return allowed;
    };
  }
  const tables = new Set<string>();
  for (const name of named.split(',').map((part) => part.trim())) {
    const type = registry.findByTable(name) ?? registry.findBySlug(name);
    if (!type) throw new AppError('bad_request', `types: there is no content type ${JSON.stringify(name)}`);
    if (!typeAllowed(limit, type)) {
      throw new AppError('forbidden', `This credential may not read the content type ${JSON.stringify(name)}`);
    }
    tables.add(type.table);
  }
  return (table) => tables.has(table);
}
