import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router } from 'express';
import { packageRoot } from '../config/package-root.js';
import { type OpenApiDocument, openApiDocument } from '../openapi/openapi-document.js';
import { typeScriptDeclarations } from '../types-gen/types-generator.js';
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

/** The document for the content types as they are once no change is under way (as reads see them). */
export async function currentDocument({ registry, writes }: Services): Promise<OpenApiDocument> {
  const changing = writes.settled();
  if (changing) await changing;
  const following = registry.follow();
  if (following) await following;
  return openApiDocument(registry.list(), { version: quireVersion() });
}

/**
 * `GET /openapi.json` and `GET /types.d.ts` (under `/api`): the API described from the content
 * types as they are now, as an OpenAPI 3.1 document and as TypeScript declarations.
 */
export function describeRoutes(services: Services): Router {
  const router = Router();
  router
    .route('/openapi.json')
    .get(async (_req, res) => {
      res.set('Cache-Control', 'no-cache').json(await currentDocument(services));
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/types.d.ts')
    .get(async (_req, res) => {
      const declarations = typeScriptDeclarations(await currentDocument(services));
      res.set('Cache-Control', 'no-cache').type('application/typescript; charset=utf-8').send(declarations);
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
