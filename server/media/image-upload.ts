import { readFile, rename, rm } from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import { AppError } from '../errors/app-error.js';
import type { ImageOptions } from './image-options.js';
import type { ImageProcess } from './image-process.js';
import type { ImageKind, ImageSize } from './image-sniffing.js';
import type { MediaStore } from './media-store.js';
import { drawableSvg } from './svg-drawing-size.js';
import { MAX_SVG_BYTES, sanitizeSvg } from './svg-sanitizer.js';
import { writeAtomically } from './variant-cache-files.js';

/** What preparing an upload did: whether the file was rewritten, and its pixel size as stored. */
export interface PreparedImage {
  rewritten: boolean;
  /** Width and height as stored (after orientation is applied), or null when the header could not be read. */
  size: ImageSize | null;
}

/** What preparing uploads needs: the limits and setting, and the image process that re-encodes. */
export type UploadPreparation = Pick<ImageOptions, 'keepMetadata' | 'maxPixels'> & { images: ImageProcess };

/** Quality of a lossy original re-encoded to drop its metadata: high, since it is the master copy. */
const REENCODE_QUALITY = 92;

/**
 * Checks and cleans an uploaded image in its temporary file before it is kept:
 * - an image of more than `maxPixels` pixels (all frames of an animation counted) is refused
 *   with a 413, read from the header alone so a decompression bomb is never decoded;
 * - unless `keepMetadata`, an image that carries EXIF, XMP or IPTC metadata (camera, time, GPS
 *   position) is re-encoded in its own format without it, its EXIF orientation applied to the
 *   pixels so it still displays upright; the colour profile is kept (in the image process: only
 *   headers are read here).
 * A file whose header the image library cannot read (an AVIF from an encoder libvips does not
 * know) is kept as sniffed: it is served as is, and variants of it are refused.
 * An SVG is always rewritten: what is kept is `sanitizeSvg`'s cleaned text, never the upload.
 */
export async function prepareUploadedImage(
  file: string,
  kind: ImageKind,
  options: UploadPreparation,
): Promise<PreparedImage> {
  if (kind.type === 'image/svg+xml') return prepareUploadedSvg(file, options.maxPixels);
  let meta: Metadata;
  try {
    meta = await sharp(file, { animated: true, limitInputPixels: false }).metadata();
  } catch {
    return { rewritten: false, size: null };
  }
  if (!meta.width || !meta.height) return { rewritten: false, size: null };
  if (meta.width * meta.height > options.maxPixels) throw tooManyPixels(meta.width, meta.height, options.maxPixels);
  const frameHeight = meta.pageHeight ?? meta.height;
  const carriesMetadata = meta.exif !== undefined || meta.xmp !== undefined || meta.iptc !== undefined;
  if (options.keepMetadata || !carriesMetadata)
    return { rewritten: false, size: { width: meta.width, height: frameHeight } };

  const cleaned = `${file}.clean`;
  try {
    const written = await options.images.reencode({
      file,
      format: outputFormatOf(kind),
      quality: REENCODE_QUALITY,
      // Orientation lives in the EXIF that is dropped, so it is applied to the pixels first.
      rotate: (meta.orientation ?? 1) > 1,
      maxPixels: options.maxPixels,
      out: cleaned,
    });
    await rename(cleaned, file);
    return { rewritten: true, size: { width: written.width, height: meta.pageHeight ? frameHeight : written.height } };
  } catch (error) {
    await rm(cleaned, { force: true });
    throw error;
  }
}

/**
 * Replaces an uploaded SVG by its cleaned text (see `sanitizeSvg`), and reads its size from the
 * cleaned drawing as a browser sizes it (its width and height, else from its viewBox, else 300 x
 * 150: svg-drawing-size.ts), the size its variants are drawn at. A
 * drawing sized beyond `maxPixels` is refused like a raster one: its variants are rendered at that size.
 */
async function prepareUploadedSvg(file: string, maxPixels: number): Promise<PreparedImage> {
  const bytes = await readFile(file);
  if (bytes.length > MAX_SVG_BYTES) throw tooLargeSvg();
  const cleaned = Buffer.from(await sanitizeSvg(bytes.toString('utf8')), 'utf8');
  await writeAtomically(file, cleaned);
  let meta: Metadata;
  try {
    meta = await sharp(drawableSvg(cleaned), { limitInputPixels: false }).metadata();
  } catch {
    // A drawing the renderer cannot read at all is kept without a size (and gets no variants).
    return { rewritten: true, size: null };
  }
  if (!meta.width || !meta.height) return { rewritten: true, size: null };
  if (meta.width * meta.height > maxPixels) throw tooManyPixels(meta.width, meta.height, maxPixels);
  return { rewritten: true, size: { width: meta.width, height: meta.height } };
}

function tooLargeSvg(): AppError {
  return new AppError(
    'payload_too_large',
    `The SVG is larger than ${MAX_SVG_BYTES} bytes, the limit for drawings; simplify or export it as PNG or WebP`,
    undefined,
    { code: 'too_large', limit: MAX_SVG_BYTES },
  );
}

/** Sharp's output format for a stored kind. */
export function outputFormatOf(kind: Pick<ImageKind, 'type'>): 'png' | 'jpeg' | 'gif' | 'webp' | 'avif' {
  switch (kind.type) {
    case 'image/png':
      return 'png';
    case 'image/gif':
      return 'gif';
    case 'image/webp':
      return 'webp';
    case 'image/avif':
      return 'avif';
    default:
      return 'jpeg';
  }
}

/** The refusal of an image with more pixels than the limit. */
export function tooManyPixels(width: number, height: number, maxPixels: number): AppError {
  return new AppError(
    'payload_too_large',
    `The image is ${width} x ${height} pixels, more than the limit of ${maxPixels} pixels; upload a smaller one`,
  );
}

/**
 * `store` with every upload it receives prepared by `prepareUploadedImage` before it can be kept
 * (a new upload and a replaced file alike): a refusal discards the received file. The rest of the
 * store is `store` itself (the same prototype, so what serves its files still knows its kind).
 */
export function withImagePreparation(store: MediaStore, options: UploadPreparation): MediaStore {
  const prepared: MediaStore = Object.create(store);
  prepared.receive = async (source, maxBytes) => {
    const pending = await store.receive.call(prepared, source, maxBytes);
    try {
      await pending.prepare((file, kind) => prepareUploadedImage(file, kind, options));
    } catch (error) {
      await pending.discard();
      throw error;
    }
    return pending;
  };
  return prepared;
}
