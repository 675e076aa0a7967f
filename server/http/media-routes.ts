import express, { Router } from 'express';
import type { UnusedMediaResponse, UploadResponse } from '../../common/api-contract.js';
import { AppError } from '../errors/app-error.js';
import type { UploadedAsset } from '../media/asset-service.js';
import { asksForVariant } from '../media/image-variants.js';
import { kindOfFileName } from '../media/media-path.js';
import { findUnusedMedia } from '../media/media-prune.js';
import type { MediaReferenceSource } from '../media/media-references.js';
import { FileMediaStore, type MediaStore } from '../media/media-store.js';
import { receiveUpload } from '../media/multipart-upload.js';
import { IMMUTABLE, type ImageVariants } from '../media/variant-cache.js';
import { principalOf } from './auth-guard.js';
import { methodNotAllowed } from './error-middleware.js';
import { answerConditionally } from './etag.js';

/**
 * Headers of every served media file. An uploaded file is untrusted content: `nosniff` keeps the
 * browser to the sniffed image type, and the CSP sandbox means that even a file opened directly
 * in a tab cannot run script or reach anything. Caching is decided per answer: a replaced file
 * keeps its path, so only a URL naming the content hash (`?v=`) is immutable.
 */
export const MEDIA_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; img-src 'self'; sandbox",
  'X-Content-Type-Options': 'nosniff',
};

/**
 * Headers of a served SVG original, a document a browser runs when it is opened directly: its
 * upload was cleaned of script and outside references (svg-sanitizer.ts), and this policy is the
 * second line. Inline styles (`style` attributes, `<style>`) are all a cleaned drawing uses; it
 * loads nothing (every reference left is a `#fragment`), and the sandbox runs no script.
 */
export const SVG_MEDIA_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  'Content-Type': 'image/svg+xml',
};

/** The headers of a served original at `relative` (by the kind its name stands for). */
function originalHeadersOf(relative: string): Readonly<Record<string, string>> {
  return kindOfFileName(relative)?.type === 'image/svg+xml' ? SVG_MEDIA_HEADERS : MEDIA_HEADERS;
}

/** Where a kept upload becomes a media asset (and is recorded in the change feed). */
export interface UploadRecorder {
  addUpload(
    kept: UploadResponse,
    fileName: string | null,
    by: string | null,
    duplicate: boolean,
  ): Promise<UploadedAsset>;
}

/**
 * `POST /uploads` (under `/api`, behind the API guards): stores one image as a media asset and
 * answers 201 with it (its path first of all). The same bytes uploaded again answer 200 with the
 * asset they already are and keep nothing new, unless `?duplicate=true`.
 */
export function uploadRoutes(store: MediaStore, maxBytes: number, assets: UploadRecorder): Router {
  const router = Router();
  router
    .route('/uploads')
    .post(async (req, res) => {
      const duplicate = duplicateFlag(req.query);
      const { kept, fileName } = await receiveUpload(req, store, maxBytes);
      const added = await assets.addUpload(kept, fileName, principalOf(req)?.name ?? null, duplicate);
      res.status(added.created ? 201 : 200).json(added.asset);
    })
    .all(methodNotAllowed(['POST']));
  return router;
}

/** `?duplicate=true` keeps a second asset of bytes the library has; any other parameter is refused. */
function duplicateFlag(query: Record<string, unknown>): boolean {
  for (const name of Object.keys(query)) {
    if (name !== 'duplicate') {
      throw new AppError(
        'bad_request',
        `Unknown query parameter ${JSON.stringify(name)}; an upload takes only duplicate`,
      );
    }
  }
  const value = query.duplicate;
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1' || value === '') return true;
  throw new AppError('bad_request', 'duplicate must be true or false');
}

/**
 * `GET /media/unused` (under `/api`): how many uploads no row names and how many bytes they take,
 * what `quire media prune` would delete. It reads every row that contains a media path.
 */
export function unusedMediaRoutes(store: MediaStore, sources: () => readonly MediaReferenceSource[]): Router {
  const router = Router();
  router
    .route('/media/unused')
    .get(async (_req, res) => {
      const unused = await findUnusedMedia(() => store.list(), sources());
      const body: UnusedMediaResponse = { count: unused.files.length, bytes: unused.bytes };
      res.json(body);
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

/**
 * `GET /media/...` (mounted at `/media`): serves stored files. A path must be a generated name
 * the store holds (for a folder: whose real location is inside it); anything else (`..`, `%2e%2e`,
 * `%2f`, dotfiles, folders, symlinks out) is a 404 before express.static sees it, and express.static
 * itself is set to deny dotfiles and folder indexes as a second line. With `w`, `h`, `fit`,
 * `format` or `q` in the query, an image is answered with a resized variant (see ImageVariants):
 * a strong ETag, `no-cache` unless `v` names the original's content hash, `Vary: Accept` for
 * `format=auto`. An original has the same validators: its content hash as a strong ETag (a 304
 * for `If-None-Match`), immutable for a year only with `?v=<content hash>`. An SVG original is
 * served with SVG_MEDIA_HEADERS; its variants are rasters (PNG unless another format is asked).
 */
export function mediaRoutes(store: MediaStore, variants: ImageVariants | null = null): Router {
  const router = Router();
  const serve =
    store instanceof FileMediaStore
      ? express.static(store.root, {
          dotfiles: 'deny',
          index: false,
          redirect: false,
          fallthrough: true,
          // Validators and caching are set per answer (see below), from the content hash.
          cacheControl: false,
          etag: false,
          lastModified: false,
          setHeaders(res, path) {
            // By the sniffed kind the name was given, not by a MIME table's guess.
            const kind = kindOfFileName(path);
            if (kind) res.setHeader('Content-Type', kind.type);
          },
        })
      : null;
  router.use(async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(['GET'])(req, res, next);
    // req.path is still percent-encoded, so an encoded `..` or `/` never matches a generated name.
    const relative = req.path.slice(1);
    const found = await store.find(relative);
    if (!found) return next(notFound());
    if (variants && asksForVariant(req.query)) {
      const variant = await variants.answer(relative, found, req.query, req.get('accept'));
      res.set(MEDIA_HEADERS);
      res.set({ 'Content-Type': variant.type, 'Cache-Control': variant.cacheControl });
      if (variant.negotiated) res.vary('Accept');
      if (answerConditionally(req, res, variant.etag)) return;
      return res.sendFile(variant.file, { dotfiles: 'allow', etag: false, lastModified: false, cacheControl: false });
    }
    res.set(originalHeadersOf(relative));
    if (variants) {
      const headers = await variants.originalHeaders(relative, found, req.query.v);
      res.setHeader('Cache-Control', headers.cacheControl);
      if (answerConditionally(req, res, headers.etag)) return;
    } else {
      res.setHeader('Cache-Control', IMMUTABLE);
    }
    if ('file' in found) {
      if (serve) return serve(req, res, next);
      return res.sendFile(found.file, { etag: false, lastModified: false, cacheControl: false });
    }
    // Bytes from the database: the same headers express.static sends for a file.
    const kind = kindOfFileName(relative);
    if (kind) res.setHeader('Content-Type', kind.type);
    res.send(found.bytes);
  });
  router.use((_req, _res, next) => next(notFound()));
  return router;
}

function notFound(): AppError {
  return new AppError('not_found', 'There is no media file at this path');
}

/**
 * `/uploads` and `/media/unused` (under `/api`) where there is no media store (an in-memory
 * SQLite database has nowhere to keep files): a 404 saying why, before the body
 * parsers could answer a multipart upload with a misleading 415.
 */
export function noMediaRoutes(reason: string): Router {
  const router = Router();
  router.all(['/uploads', '/media', '/media/*splat'], () => {
    throw new AppError('not_found', reason);
  });
  return router;
}
