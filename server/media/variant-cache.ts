import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { AppError } from '../errors/app-error.js';
import type { ImageOptions } from './image-options.js';
import type { ImageProcess } from './image-process.js';
import {
  CENTRE,
  type FocalPoint,
  negotiateFormat,
  type OriginalShape,
  planKey,
  planVariant,
  readVariantRequest,
  VARIANT_TYPES,
  type VariantFormat,
} from './image-variants.js';
import type { FoundMedia } from './media-store.js';
import { drawableSvg } from './svg-drawing-size.js';
import { VariantCacheFiles } from './variant-cache-files.js';

/** Where a crop is centred for a stored file (the asset library's focal point), or null for the centre. */
export type FocalPointSource = (relative: string) => Promise<FocalPoint | null>;

/** A variant ready to send: the cached file and the headers that go with it. */
export interface VariantAnswer {
  file: string;
  type: string;
  etag: string;
  cacheControl: string;
  /** Whether the format was negotiated from Accept (the answer then carries `Vary: Accept`). */
  negotiated: boolean;
  /** Whether it was already in the cache. */
  hit: boolean;
}

/** What is known of an original: its content hash and shape, or null shape when sharp cannot read it. */
interface OriginalInfo {
  identity: string;
  hash: string;
  shape: OriginalShape | null;
}

/** Originals remembered (hash and size), so a cached variant is found without reading the original again. */
const REMEMBERED_ORIGINALS = 2000;

/** Cache-Control of a URL that names the content hash (`?v=`): the bytes at it never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Image variants, made once and kept in a cache folder on this machine (beside a SQLite site's
 * media; for a PostgreSQL site, on each server's own disk). A cache file is named by the
 * original's content hash and the variant's plan, so a replaced original never serves old
 * variants and servers or sites sharing a cache folder never mix theirs up. One generation of a
 * variant runs at a time (later requests wait for it), at most `maxConcurrent` generations run at
 * once, and at most `maxQueued` wait; beyond that a 429. The folder is kept under
 * `cacheMaxBytes`, least recently used variants pruned first, and an original's variants are
 * deleted when it is replaced or deleted (`removeVariantsOf`).
 */
export class ImageVariants {
  /** Variants made since start (the cache's misses); tests and the benchmark read it. */
  generated = 0;
  /** Where crops are centred; the asset library supplies focal points through this seam. */
  focalPointOf: FocalPointSource = async () => null;
  private readonly originals = new Map<string, OriginalInfo>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /** The cache folder as an absolute path (files are sent by absolute path). */
  readonly cacheDir: string;
  /** The folder's files under their size cap. */
  readonly files: VariantCacheFiles;

  constructor(
    cacheDir: string,
    private readonly options: ImageOptions,
    /** Where variants are made, off the server's process. */
    private readonly images: ImageProcess,
  ) {
    this.cacheDir = resolve(cacheDir);
    this.files = new VariantCacheFiles(this.cacheDir, options.cacheMaxBytes);
  }

  /** Deletes the cached variants of the original whose content hash is `hash` (its file replaced or deleted). */
  removeVariantsOf(hash: string): Promise<void> {
    return this.files.removeOriginal(hash);
  }

  /** The variant of `found` (stored at `relative`) that `query` asks for, from the cache or made now. */
  async answer(
    relative: string,
    found: FoundMedia,
    query: Record<string, unknown>,
    accept: string | undefined,
  ): Promise<VariantAnswer> {
    const request = readVariantRequest(query, this.options.sizes);
    const original = await this.original(relative, found);
    if (!original.shape) {
      throw new AppError(
        'unsupported_media_type',
        'This image cannot be resized: its format is not one the server decodes',
      );
    }
    const format: VariantFormat =
      request.format === 'auto'
        ? negotiateFormat(accept, original.shape.format)
        : (request.format ?? original.shape.format);
    const crops = request.fit === 'cover' && request.width !== null && request.height !== null;
    const focal = crops ? ((await this.focalPointOf(relative)) ?? CENTRE) : CENTRE;
    const plan = planVariant(request, original.shape, format, focal);
    const key = planKey(plan);
    const file = join(this.cacheDir, original.hash.slice(0, 2), `${original.hash}-${key}`);
    const hit = await this.files.has(file);
    if (!hit) {
      await this.once(file, async () => {
        const size = await this.images.variant({
          input: 'file' in found ? { file: found.file } : { bytes: found.bytes },
          original: original.shape as OriginalShape,
          plan,
          maxPixels: this.options.maxPixels,
          out: file,
        });
        this.generated++;
        await this.files.added(file, size);
      });
    }
    return {
      file,
      type: VARIANT_TYPES[format],
      etag: `"${original.hash.slice(0, 32)}-${key}"`,
      // A crop follows the focal point, which can change while the content hash (the `v`) does not:
      // it is revalidated (its ETag names the focal point), never kept for a year.
      cacheControl: request.version === original.hash && plan.focal === null ? IMMUTABLE : 'no-cache',
      negotiated: request.format === 'auto',
      hit,
    };
  }

  /**
   * The strong ETag (its content hash) and Cache-Control of an original file: immutable only when
   * `version` (the URL's `v`) is its content hash, since a replaced file keeps its path.
   */
  async originalHeaders(
    relative: string,
    found: FoundMedia,
    version: unknown,
  ): Promise<{ etag: string; cacheControl: string }> {
    const { hash } = await this.original(relative, found);
    return { etag: `"${hash.slice(0, 32)}"`, cacheControl: version === hash ? IMMUTABLE : 'no-cache' };
  }

  /** The content hash (sha256, hex) and shape of an original, remembered while the file is unchanged. */
  private async original(relative: string, found: FoundMedia): Promise<OriginalInfo> {
    let identity: string;
    let bytes: Buffer | null = null;
    if ('file' in found) {
      const info = await stat(found.file);
      identity = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
    } else {
      bytes = found.bytes;
      identity = await sha256(bytes);
    }
    const known = this.originals.get(relative);
    if (known && known.identity === identity) return known;
    bytes ??= await readFile((found as { file: string }).file);
    const hash = 'bytes' in found ? identity : await sha256(bytes);
    const remembered: OriginalInfo = { identity, hash, shape: await shapeOf(bytes) };
    this.originals.delete(relative);
    this.originals.set(relative, remembered);
    if (this.originals.size > REMEMBERED_ORIGINALS) {
      this.originals.delete(this.originals.keys().next().value as string);
    }
    return remembered;
  }

  /** Runs `work` for `file` unless it is already running (then waits for that run), within the concurrency cap. */
  private once(file: string, work: () => Promise<void>): Promise<void> {
    const running = this.inFlight.get(file);
    if (running) return running;
    const run = this.withTurn(work).finally(() => this.inFlight.delete(file));
    this.inFlight.set(file, run);
    return run;
  }

  private async withTurn(work: () => Promise<void>): Promise<void> {
    if (this.running >= this.options.maxConcurrent) {
      if (this.waiting.length >= this.options.maxQueued) {
        throw new AppError('too_many_requests', 'Too many image variants are being made; try again in a moment');
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      await work();
    } finally {
      // The turn passes to the next waiting request, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** sha256 in hex, computed off the event loop (WebCrypto digests run on the thread pool). */
async function sha256(bytes: Buffer): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

const SHARP_FORMATS: Record<string, VariantFormat> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  heif: 'avif',
  // An SVG (cleaned at upload) is drawn by libvips' SVG loader; its variants are rasters, PNG unless asked.
  svg: 'png',
};

/**
 * The displayed size and format of an image from its header (an SVG's as a browser draws it), or
 * null when sharp cannot read it.
 */
export async function shapeOf(bytes: Buffer): Promise<OriginalShape | null> {
  try {
    const meta = await sharp(drawableSvg(bytes), { limitInputPixels: false }).metadata();
    const format = SHARP_FORMATS[meta.format ?? ''];
    if (!format || !meta.autoOrient?.width || !meta.autoOrient.height) return null;
    return { width: meta.autoOrient.width, height: meta.autoOrient.height, format };
  } catch {
    return null;
  }
}
