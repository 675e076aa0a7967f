import { Router } from 'express';
import type { LocalesDocument } from '../../common/locale-contract.js';
import type { AuditService } from '../audit/audit-service.js';
import { staleWrite } from '../content/row-versions.js';
import type { LocaleService, LocalesLastChange } from '../locales/locale-service.js';
import { requestActor } from './audit-actor.js';
import { principalOf } from './auth-guard.js';
import { methodNotAllowed } from './error-middleware.js';
import { etagOf } from './etag.js';
import { type IfMatch, ifMatchHolds, parseIfMatch } from './if-match.js';
import { forceFlag } from './query-flags.js';

/**
 * `/locales`: the site's languages. Anyone who may read content reads them; changing them is for
 * admins (the auth guard's rule for writes it names nothing else for). A change may carry
 * `If-Match` with the ETag of the read it started from (a stale one is a 412 with the locales as
 * they are now), and is recorded in the audit log.
 */
export function localeRoutes(locales: LocaleService, editorName: string | null, audit: AuditService): Router {
  const router = Router();
  router
    .route('/locales')
    .get(async (_req, res) => {
      const body: LocalesDocument = await locales.now();
      res.json(body);
    })
    .put(async (req, res) => {
      const force = forceFlag(req.query as Record<string, unknown>);
      const condition = parseIfMatch(req.headers['if-match']);
      const principal = principalOf(req);
      const change = await locales.replace(req.body, {
        force,
        by: principal ? principal.name : editorName,
        check: condition === null ? undefined : (current, last) => refuseStale(condition, current, last),
      });
      await audit.record({
        ...requestActor(req),
        action: 'locales.changed',
        target: null,
        detail: {
          default: change.document.default,
          locales: change.document.locales.map((locale) => locale.code),
          removed: change.removed,
          forced: force && change.removed.length > 0,
        },
      });
      const body: LocalesDocument = change.document;
      res.setHeader('ETag', localesTag(body)).json(body);
    })
    .all(methodNotAllowed(['GET', 'PUT']));
  return router;
}

/** The locales' ETag: the one `GET /api/locales` answers with (a hash of the document's JSON). */
export function localesTag(document: LocalesDocument): string {
  return etagOf(JSON.stringify(document));
}

/** A 412 `stale_write` unless `If-Match` names the locales as they are now. */
function refuseStale(condition: IfMatch, current: LocalesDocument, last: LocalesLastChange | null): void {
  const etag = localesTag(current);
  if (ifMatchHolds(condition, etag)) return;
  const stale = staleWrite();
  stale.stale = {
    current,
    etag,
    lastChange: last ? { action: 'update', by: last.by, at: last.at, fields: ['locales'] } : null,
  };
  throw stale;
}
