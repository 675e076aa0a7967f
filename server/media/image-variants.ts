import sharp from 'sharp';
import { AppError } from '../errors/app-error.js';
import { MAX_VARIANT_SIDE, VARIANT_FITS, VARIANT_FORMATS } from './image-options.js';
import { drawableSvg } from './svg-drawing-size.js';

export { VARIANT_FITS, VARIANT_FORMATS };

// One libvips thread per image, on every platform (glibc Linux builds of sharp default to one,
// macOS and Windows to every core): the cap on generations at once (ImageOptions.maxConcurrent,
// a core fewer than the machine has) then leaves a core to the event loop.
sharp.concurrency(1);

/**
 * What a variant request (`/media/<path>?w=&h=&fit=&format=&q=&v=`) asks for, how it is fitted to
 * the original, and how it is made with sharp. Pure rules and one sharp pipeline; caching, queueing
 * and serving are in variant-cache.ts.
 */

/** A variant's format; `gif` only for a GIF original asked for no other format. */
export type VariantFormat = (typeof VARIANT_FORMATS)[number] | 'gif';
export type VariantFit = (typeof VARIANT_FITS)[number];

/** The query parameters a variant request may carry; any other is a 400. */
const VARIANT_PARAMETERS = new Set(['w', 'h', 'fit', 'format', 'q', 'v']);
/** Those that ask for a variant; a request with none (or only `v`) is served the original. */
const TRANSFORM_PARAMETERS = ['w', 'h', 'fit', 'format', 'q'];

/** Media types of the variant formats. */
export const VARIANT_TYPES: Record<VariantFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

/** Quality used when `q` is not given, per format (AVIF holds up at lower settings). */
const DEFAULT_QUALITY: Record<VariantFormat, number> = { avif: 55, webp: 80, jpeg: 80, png: 100, gif: 100 };

/** A variant request as read from the query string. */
export interface VariantRequest {
  width: number | null;
  height: number | null;
  fit: VariantFit;
  /** The format asked for; `auto` negotiates from Accept; null keeps the original's. */
  format: VariantFormat | 'auto' | null;
  quality: number | null;
  /** The content hash the URL carries (`v`), or null. */
  version: string | null;
}

/** Whether a query string asks for a variant rather than the original file. */
export function asksForVariant(query: Record<string, unknown>): boolean {
  return TRANSFORM_PARAMETERS.some((name) => query[name] !== undefined);
}

/**
 * Reads a variant request; a value out of range, an unknown or repeated parameter, or a size
 * outside `sizes` (the `--image-sizes` allow-list, when there is one) is a 400 saying which.
 */
export function readVariantRequest(query: Record<string, unknown>, sizes: readonly number[] | null): VariantRequest {
  for (const [name, value] of Object.entries(query)) {
    if (!VARIANT_PARAMETERS.has(name)) {
      throw badVariant(`${name} is not a variant parameter; use w, h, fit, format, q and v`);
    }
    if (typeof value !== 'string') throw badVariant(`${name} is given more than once`);
  }
  const text = query as Record<string, string | undefined>;
  const width = side('w', text.w, sizes);
  const height = side('h', text.h, sizes);
  const fit = text.fit ?? 'cover';
  if (!(VARIANT_FITS as readonly string[]).includes(fit))
    throw badVariant(`fit must be one of ${VARIANT_FITS.join(', ')}`);
  const format = text.format ?? null;
  if (format !== null && format !== 'auto' && !(VARIANT_FORMATS as readonly string[]).includes(format)) {
    throw badVariant(`format must be one of ${VARIANT_FORMATS.join(', ')} or auto`);
  }
  let quality: number | null = null;
  if (text.q !== undefined) {
    quality = /^\d{1,3}$/.test(text.q) ? Number(text.q) : 0;
    if (quality < 1 || quality > 100) throw badVariant('q must be a whole number from 1 to 100');
  }
  return {
    width,
    height,
    fit: fit as VariantFit,
    format: format as VariantRequest['format'],
    quality,
    version: text.v ?? null,
  };
}

function side(name: string, raw: string | undefined, sizes: readonly number[] | null): number | null {
  if (raw === undefined) return null;
  const value = /^\d{1,4}$/.test(raw) ? Number(raw) : 0;
  if (value < 1 || value > MAX_VARIANT_SIDE) {
    throw badVariant(`${name} must be a whole number of pixels from 1 to ${MAX_VARIANT_SIDE}`);
  }
  if (sizes && !sizes.includes(value)) {
    throw badVariant(`${name}=${value} is not one of the sizes this server makes: ${sizes.join(', ')}`);
  }
  return value;
}

/** The one refusal of a variant request. */
function badVariant(message: string): AppError {
  return new AppError('bad_request', `This image variant cannot be made: ${message}`);
}

/**
 * The format `format=auto` picks from an Accept header: AVIF, then WebP, when the client lists
 * them (a wildcard does not count: browsers send one whatever they decode), else the original's.
 */
export function negotiateFormat(accept: string | undefined, original: VariantFormat): VariantFormat {
  const accepted = new Set<string>();
  for (const entry of (accept ?? '').split(',')) {
    const [type, ...parameters] = entry.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(type.trim());
  }
  if (accepted.has('image/avif')) return 'avif';
  if (accepted.has('image/webp')) return 'webp';
  return original;
}

/** A focal point: where the subject is, as fractions of the width and height (0.5, 0.5 is the centre). */
export interface FocalPoint {
  x: number;
  y: number;
}

/** The centre, where a crop goes when no focal point is known. */
export const CENTRE: FocalPoint = { x: 0.5, y: 0.5 };

/** Exactly what is made: the request fitted to the original, its format and quality decided. */
export interface VariantPlan {
  width: number | null;
  height: number | null;
  fit: VariantFit;
  format: VariantFormat;
  quality: number;
  /** Only for `cover` with both sides (the one case that crops). */
  focal: FocalPoint | null;
}

/** What a plan needs to know of the original: its displayed size (orientation applied) and format. */
export interface OriginalShape {
  width: number;
  height: number;
  format: VariantFormat;
}

/**
 * Fits a request to the original: a variant is never larger than the original, so a box beyond
 * it is scaled down as a whole (keeping the asked aspect ratio), and one side alone is capped.
 */
export function planVariant(
  request: VariantRequest,
  original: OriginalShape,
  format: VariantFormat,
  focal: FocalPoint,
): VariantPlan {
  let { width, height } = request;
  if (width !== null && height !== null) {
    const factor = Math.min(1, original.width / width, original.height / height);
    width = Math.max(1, Math.round(width * factor));
    height = Math.max(1, Math.round(height * factor));
  } else if (width !== null) {
    width = Math.min(width, original.width);
  } else if (height !== null) {
    height = Math.min(height, original.height);
  }
  const crops = request.fit === 'cover' && width !== null && height !== null;
  return {
    width,
    height,
    fit: request.fit,
    format,
    quality: request.quality ?? DEFAULT_QUALITY[format],
    focal: crops ? { x: clamp01(focal.x), y: clamp01(focal.y) } : null,
  };
}

/** A short name of a plan, unique per distinct output: part of cache file names and ETags. */
export function planKey(plan: VariantPlan): string {
  const box = `${plan.width ?? ''}x${plan.height ?? ''}`;
  const focal = plan.focal ? `-${plan.focal.x.toFixed(3)},${plan.focal.y.toFixed(3)}` : '';
  return `${box}-${plan.fit}${focal}-q${plan.quality}.${plan.format}`;
}

/**
 * Makes a variant with sharp (the server calls it in its image process, image-process.ts; an
 * export in its own command): EXIF orientation applied, the first frame only, no metadata in the
 * output; an SVG at the size a browser draws it (svg-drawing-size.ts). `cover` with both sides
 * scales the image to cover the box, then cuts the box out around the focal point.
 */
export async function makeVariant(
  input: Buffer | string,
  original: Pick<OriginalShape, 'width' | 'height'>,
  plan: VariantPlan,
  maxPixels: number,
): Promise<Buffer> {
  const drawn = Buffer.isBuffer(input) ? drawableSvg(input) : input;
  let image = sharp(drawn, { limitInputPixels: maxPixels, animated: false }).rotate();
  const { width, height } = plan;
  if (plan.focal && width !== null && height !== null) {
    const scale = Math.max(width / original.width, height / original.height);
    const scaledWidth = Math.max(width, Math.round(original.width * scale));
    const scaledHeight = Math.max(height, Math.round(original.height * scale));
    const left = Math.round(plan.focal.x * scaledWidth - width / 2);
    const top = Math.round(plan.focal.y * scaledHeight - height / 2);
    image = image.resize(scaledWidth, scaledHeight, { fit: 'fill' }).extract({
      left: Math.min(Math.max(0, left), scaledWidth - width),
      top: Math.min(Math.max(0, top), scaledHeight - height),
      width,
      height,
    });
  } else if (width !== null || height !== null) {
    const opaque = plan.format === 'jpeg';
    image = image.resize(width ?? undefined, height ?? undefined, {
      fit: width !== null && height !== null ? plan.fit : 'inside',
      withoutEnlargement: true,
      background: { r: 255, g: 255, b: 255, alpha: opaque ? 1 : 0 },
    });
  }
  // JPEG has no transparency: transparent parts become white rather than black.
  if (plan.format === 'jpeg') image = image.flatten({ background: '#ffffff' });
  return image.toFormat(plan.format, { quality: plan.quality }).toBuffer();
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0.5;
}
