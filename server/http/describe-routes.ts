import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { type Response, Router } from 'express';
import { packageRoot } from '../config/package-root.js';
import { typesSeenBy } from '../content/relations.js';
import { type OpenApiDocument, openApiDocument } from '../openapi/openapi-document.js';
import { typeScriptDeclarations } from '../types-gen/types-generator.js';
import { principalOf } from './auth-guard.js';
import { methodNotAllowed } from './error-middleware.js';
import type { Services } from './services.js';

let version: string | null = null;

/** Quire's version, from its package.json (read once). */
export function quireVersion(): string {
  if (version === null) {
    try {
      version = String(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version ?? '0.0.0');
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}

/**
 * The document for the content types as they are once no change is under way (as reads see them),
 * describing only the types `readable` names (a credential's content-type limit; null: every type),
 * and their relations to other types as always null (see `hiddenRelations`).
 */
export async function currentDocument(
  { registry, writes, locales }: Services,
  readable: readonly string[] | null = null,
): Promise<OpenApiDocument> {
  const changing = writes.settled();
  if (changing) await changing;
  const following = registry.follow();
  if (following) await following;
  return openApiDocument(typesSeenBy(registry, readable), { version: quireVersion(), locales: await locales.now() });
}

/**
 * The answer differs by credential (a type-limited one is described only its types): a cache
 * keeps one per credential, never one shared across them.
 */
export function perCredential(res: Response): Response {
  return res.set('Cache-Control', 'no-cache').vary('Authorization').vary('Cookie');
}

/**
 * `GET /openapi.json` and `GET /types.d.ts` (under `/api`): the API described from the content
 * types as they are now, as an OpenAPI 3.1 document and as TypeScript declarations.
 */
export function describeRoutes(services: Services): Router {
  const router = Router();
  router
    .route('/openapi.json')
    .get(async (req, res) => {
      perCredential(res).json(await currentDocument(services, readableBy(req)));
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/types.d.ts')
    .get(async (req, res) => {
      const declarations = typeScriptDeclarations(await currentDocument(services, readableBy(req)));
      perCredential(res).type('application/typescript; charset=utf-8').send(declarations);
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

/** The content types a request's credential may read (null: every type). */
export function readableBy(req: IncomingMessage): readonly string[] | null {
  return principalOf(req)?.types ?? null;
}
