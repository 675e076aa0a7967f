import { Router } from 'express';
import { typeAllowed } from '../../common/access-rules.js';
import { START_CURSOR } from '../changes/change-cursor.js';
import { type ChangeFeed, MEDIA_CHANGE_TYPE, seesMediaChanges } from '../changes/change-feed.js';
import { DEFAULT_CHANGES_PAGE, MAX_CHANGES_PAGE } from '../changes/change-feed-service.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import { AppError } from '../errors/app-error.js';
import { principalOf } from './auth-guard.js';
import { onlyQuery } from './content-type-routes.js';
import { methodNotAllowed } from './error-middleware.js';

/**
 * `GET /api/changes`: the change feed, for anyone who may read rows. A credential limited to some
 * content types sees their changes only; `?types=` narrows further. A change names a row, never
 * its content: drafts' changes are listed for everyone who may read the type, and what the row
 * holds is read through the row API, which applies its own rules.
 */
export function changeRoutes(registry: ContentTypeRegistry, feed: ChangeFeed): Router {
  const router = Router();
  router
    .route('/changes')
    .get(onlyQuery('since', 'limit', 'types'), async (req, res) => {
      const since = textParameter(req.query.since) ?? START_CURSOR;
      const limit = limitOf(req.query.limit);
      const types = visibleTables(registry, textParameter(req.query.types), principalOf(req)?.types ?? null);
      res.json(await feed.read({ since, limit, ...(types === null ? {} : { types }) }));
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

function textParameter(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw new AppError('bad_request', 'since, limit and types are given once each');
  return raw;
}

/** `limit`: 1 to MAX_CHANGES_PAGE, DEFAULT_CHANGES_PAGE when absent; anything else is a 400. */
function limitOf(raw: unknown): number {
  const text = textParameter(raw);
  if (text === undefined) return DEFAULT_CHANGES_PAGE;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= MAX_CHANGES_PAGE)) {
    throw new AppError('bad_request', `limit must be a whole number from 1 to ${MAX_CHANGES_PAGE}`);
  }
  return value;
}

/**
 * The tables whose changes the caller reads (null: all): those `types` names (tables or slugs,
 * comma-separated; a name no type has now is taken as the table of a dropped type), within the
 * credential's limit. A limited credential without `types` reads the types it may read now and
 * the names of its limit (a dropped type's changes included).
 */
function visibleTables(
  registry: ContentTypeRegistry,
  types: string | undefined,
  limit: readonly string[] | null,
): string[] | null {
  const known = registry.list();
  const tableOf = (name: string) => known.find((type) => type.table === name || type.slug === name)?.table ?? name;
  const allowed = (table: string) => {
    const type = known.find((candidate) => candidate.table === table);
    return typeAllowed(limit, type ?? { table, slug: table });
  };
  // A limit's raw names are read too (a dropped type's changes); a type's slug may be `media`.
  const readable = (table: string) => table !== MEDIA_CHANGE_TYPE || seesMediaChanges(limit);
  if (types !== undefined) {
    const names = types.split(',').map((name) => name.trim());
    if (names.some((name) => name === '' || name.includes('\u0000'))) {
      throw new AppError('bad_request', 'types must be content types’ tables or slugs, separated by commas');
    }
    return [...new Set(names.map(tableOf))].filter((table) => allowed(table) && readable(table));
  }
  if (limit === null) return null;
  const tables = [...known.filter((type) => typeAllowed(limit, type)).map((type) => type.table), ...limit];
  return [...new Set(tables)].filter(readable);
}
