import { availableParallelism } from 'node:os';

/**
 * How the image pipeline treats uploads and variants: read once from `quire serve`'s flags
 * (`--image-sizes`, `--keep-image-metadata`) by the config module and passed down.
 */
export interface ImageOptions {
  /** The only widths and heights a variant may ask for (`--image-sizes`), or null for any up to MAX_VARIANT_SIDE. */
  sizes: readonly number[] | null;
  /** Keep EXIF, XMP and IPTC metadata (GPS included) in uploaded originals (`--keep-image-metadata`). */
  keepMetadata: boolean;
  /** Images with more pixels than this are refused at upload with a 413 (decompression bombs). */
  maxPixels: number;
  /** Variants made at the same time at most; further first requests wait their turn. */
  maxConcurrent: number;
  /** First requests allowed to wait for a turn; beyond them a 503 (a flood of distinct variants). */
  maxQueued: number;
  /** Where variants are kept; by default the database's own cache folder (see DatabaseMedia.variantCacheDir). */
  cacheDir?: string;
  /** The variant cache's size cap in bytes (`--image-cache-mb`); past it, the least recently used variants are deleted. */
  cacheMaxBytes: number;
}

/** The largest width or height a variant can have, whatever the original. */
export const MAX_VARIANT_SIDE = 4096;

/** Formats a variant can be written in. */
export const VARIANT_FORMATS = ['avif', 'webp', 'jpeg', 'png'] as const;
/** How a variant fills its box: `cover` crops around the focal point, `contain` pads, `inside` fits within. */
export const VARIANT_FITS = ['cover', 'contain', 'inside'] as const;

/** The pixel limit of an uploaded image: 50 megapixels (a 8660 x 5773 photo, four times what phones take). */
export const DEFAULT_MAX_IMAGE_PIXELS = 50_000_000;

/** The variant cache's size cap without `--image-cache-mb`: 1 GiB, some ten thousand 800 px WebP variants. */
export const DEFAULT_IMAGE_CACHE_MB = 1024;

/** What the pipeline does without flags. */
export const DEFAULT_IMAGE_OPTIONS: ImageOptions = {
  sizes: null,
  keepMetadata: false,
  maxPixels: DEFAULT_MAX_IMAGE_PIXELS,
  // One core is left to the event loop, so other requests keep their latency while images are made.
  maxConcurrent: Math.max(1, Math.min(4, availableParallelism() - 1)),
  maxQueued: 64,
  cacheMaxBytes: DEFAULT_IMAGE_CACHE_MB * 2 ** 20,
};

/**
 * The sizes a flag lists (`--image-sizes 320,640,1280`, `quire export --image-widths`): whole
 * numbers from 1 to MAX_VARIANT_SIDE, sorted, without repeats. Throws an Error whose message says
 * what is wrong.
 */
export function parseImageSizes(raw: string, flag = '--image-sizes'): number[] {
  const parts = raw.split(',').map((part) => part.trim());
  const sizes = parts.map((part) => (/^\d{1,4}$/.test(part) ? Number(part) : 0));
  if (parts.length === 0 || sizes.some((size) => size < 1 || size > MAX_VARIANT_SIDE)) {
    throw new Error(`${flag} must list whole numbers from 1 to ${MAX_VARIANT_SIDE}, separated by commas`);
  }
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/** One of VARIANT_FORMATS. */
export type ImageFormat = (typeof VARIANT_FORMATS)[number];

/**
 * The formats a flag lists (`quire export --image-formats avif,webp`), in the order given (a
 * builder offers them in that order), without repeats. Throws an Error saying what is wrong.
 */
export function parseImageFormats(raw: string, flag: string): ImageFormat[] {
  const formats = raw.split(',').map((part) => part.trim().toLowerCase());
  if (formats.some((format) => !(VARIANT_FORMATS as readonly string[]).includes(format))) {
    throw new Error(`${flag} must list formats from ${VARIANT_FORMATS.join(', ')}, separated by commas`);
  }
  return [...new Set(formats as ImageFormat[])];
}
