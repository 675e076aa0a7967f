import { lstat, open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { FocalPoint } from '../../common/asset-contract.js';
import { MEDIA_URL_PREFIX } from '../../common/media-rules.js';
import { type AssetRecord, AssetRepository } from '../db/repositories/asset-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { DEFAULT_MAX_IMAGE_PIXELS, type ImageFormat } from '../media/image-options.js';
import { CENTRE, makeVariant, type OriginalShape, planVariant, VARIANT_TYPES } from '../media/image-variants.js';
import { READ_NO_FOLLOW } from '../media/media-files.js';
import type { MediaStore } from '../media/media-store.js';
import { shapeOf } from '../media/variant-cache.js';
import { ExportFolder, type WriteCounts } from './export-files.js';

/**
 * The image variants a static export writes beside its originals (`quire export --image-widths
 * 480,960,1920 --image-formats avif,webp`) and a manifest per image that a builder lays it out
 * from. Variants are made by the server's own maker (image-variants.ts). A manifest sits at
 * `media/<path>.json` beside its original, so an export's index need not list them; it records the
 * original's content hash, and a later export that finds the same hash, widths and formats keeps
 * the variants as they are instead of making them again. Variant file names carry the hash, so a
 * replaced file gets new names (a static host may cache them for ever). The variants and manifest
 * of an image the export no longer holds, or of a replaced file, are removed: only files a
 * previous manifest listed, and never through a link (ExportFolder). What was asked is kept in
 * `image-variants.json`, for `quire export --since` to ask the same.
 */

/** The file that records what an export's variants were made for. */
export const VARIANT_SETTINGS_FILE = 'image-variants.json';

/** What an export is asked to make: widths in pixels (ascending) and formats (in the order a builder offers them). */
export interface ImageVariantSettings {
  widths: number[];
  formats: ImageFormat[];
}

/** One variant file of a manifest. */
export interface ManifestFile {
  /** `/media/...`, as the site serves it. */
  path: string;
  width: number;
  height: number;
}

/** One format's variants: what a `<source>` (or an `<img>`) needs. */
export interface ManifestSource {
  format: ImageFormat;
  /** Its media type (`image/avif`). */
  type: string;
  /** `/media/...-480w-....avif 480w, ...`, narrowest first. */
  srcset: string;
  files: ManifestFile[];
}

/** The manifest of one exported image (`media/<path>.json`). */
export interface ImageManifest {
  /** The original, `/media/...` (the row's value). */
  path: string;
  /** The original's media type. */
  type: string;
  /** The original's displayed size in pixels (EXIF orientation applied). */
  width: number;
  height: number;
  alt: string;
  focal: FocalPoint;
  /** sha256 of the original's bytes, in hex. */
  hash: string;
  /** The widths made: those asked up to the original's, and the original's when a wider one was asked. */
  widths: number[];
  /** One entry per format asked, in the order asked. */
  sources: ManifestSource[];
}

/** Where an image's manifest is in the export, for the part of its path after `/media/`. */
export function manifestPath(relative: string): string {
  return `media/${relative}.json`;
}

/** The widths made of an original `width` pixels wide: never wider than it. */
export function widthsFor(asked: readonly number[], width: number): number[] {
  const widths = asked.filter((candidate) => candidate <= width);
  if (asked.some((candidate) => candidate > width)) widths.push(width);
  return [...new Set(widths)];
}

/** What describes an original: its library record, or null for a file the library does not know. */
type Described = Pick<AssetRecord, 'alt' | 'focal_x' | 'focal_y' | 'content_hash' | 'media_type'> | null;

/**
 * Writes the variants and manifests of one export's images into its folder: call `add` for each
 * original the export keeps or copies.
 */
export class ExportImageVariants {
  /** Variants made (not kept from the last export). */
  made = 0;
  private readonly described: Promise<Map<string, AssetRecord>>;

  constructor(
    private readonly folder: ExportFolder,
    private readonly store: MediaStore | null,
    db: Kysely<QuireDatabase>,
    private readonly settings: ImageVariantSettings,
    paths: readonly string[],
    private readonly previous: ReadonlyMap<string, ImageManifest>,
  ) {
    this.described = new AssetRepository(db)
      .findByPaths(paths.map((path) => `${MEDIA_URL_PREFIX}${path}`))
      .then((records) => new Map(records.map((record) => [record.path, record])));
  }

  /**
   * The variants and manifest of the original at `relative` (after `/media/`): kept when the last
   * export made them of the same bytes with the same settings, else made now. A file sharp cannot
   * read gets none.
   */
  async add(relative: string): Promise<void> {
    const record: Described = (await this.described).get(`${MEDIA_URL_PREFIX}${relative}`) ?? null;
    const previous = this.previous.get(relative) ?? null;
    // A file the library does not know is hashed here: its hash still decides what is made again.
    const bytes = record ? null : await this.bytesOf(relative);
    const hash = record ? record.content_hash : bytes ? await sha256(bytes) : null;
    if (hash === null) return;
    let manifest: ImageManifest | null;
    if (previous && previous.hash === hash && (await this.stillHolds(previous))) {
      for (const source of previous.sources) for (const file of source.files) this.folder.keep(file.path.slice(1));
      manifest = { ...previous, ...described(record) };
    } else {
      manifest = await this.make(relative, bytes ?? (await this.bytesOf(relative)), hash, record);
    }
    if (manifest) await this.folder.writeJson(manifestPath(relative), manifest);
  }

  private async bytesOf(relative: string): Promise<Buffer | null> {
    const found = this.store ? await this.store.find(relative) : null;
    if (!found) return null;
    return 'file' in found ? await readFile(found.file) : found.bytes;
  }

  /** Makes every variant of an original; null when it cannot be read as an image. */
  private async make(
    relative: string,
    bytes: Buffer | null,
    hash: string,
    record: Described,
  ): Promise<ImageManifest | null> {
    const shape = bytes ? await shapeOf(bytes) : null;
    if (!bytes || !shape) return null;
    const widths = widthsFor(this.settings.widths, shape.width);
    const stem = relative.replace(/\.[^./]+$/, '');
    const sources = await Promise.all(
      this.settings.formats.map(async (format): Promise<ManifestSource> => {
        const files: ManifestFile[] = [];
        // One at a time per format: sharp spreads each one over libuv's threads already.
        for (const width of widths) files.push(await this.variant(bytes, shape, format, width, stem, hash));
        return {
          format,
          type: VARIANT_TYPES[format],
          srcset: files.map((file) => `${file.path} ${file.width}w`).join(', '),
          files,
        };
      }),
    );
    return {
      path: `${MEDIA_URL_PREFIX}${relative}`,
      // The library's media type: an SVG is drawn as a raster, so its shape names PNG.
      type: record?.media_type ?? VARIANT_TYPES[shape.format],
      width: shape.width,
      height: shape.height,
      ...described(record),
      hash,
      widths,
      sources,
    };
  }

  private async variant(
    bytes: Buffer,
    shape: OriginalShape,
    format: ImageFormat,
    width: number,
    stem: string,
    hash: string,
  ): Promise<ManifestFile> {
    const request = { width, height: null, fit: 'inside' as const, format, quality: null, version: null };
    const plan = planVariant(request, shape, format, CENTRE);
    const made = await makeVariant(bytes, shape, plan, DEFAULT_MAX_IMAGE_PIXELS);
    const name = `${stem}-${width}w-${hash.slice(0, 12)}.${format}`;
    await this.folder.write(`media/${name}`, made);
    this.made++;
    const { width: madeWidth = width, height = 1 } = await sharp(made).metadata();
    return { path: `${MEDIA_URL_PREFIX}${name}`, width: madeWidth, height };
  }

  /** Whether a previous manifest was made with these settings and its files are all still there. */
  private async stillHolds(previous: ImageManifest): Promise<boolean> {
    const formats = previous.sources.map((source) => source.format);
    if (formats.join(',') !== this.settings.formats.join(',')) return false;
    if (previous.widths.join(',') !== widthsFor(this.settings.widths, previous.width).join(',')) return false;
    for (const source of previous.sources) {
      if (source.files.length !== previous.widths.length) return false;
      for (const file of source.files) {
        const info = await lstat(join(this.folder.root, ...file.path.split('/').filter(Boolean))).catch(() => null);
        if (!info?.isFile()) return false;
      }
    }
    return true;
  }
}

/**
 * Writes the variants and manifests of `media` (the export's media, as its index lists them:
 * `/media/...`) with `settings`, or removes every one when `settings` is null; records the
 * settings for `--since`. Returns what it did to the folder.
 */
export async function writeImageVariants(
  dir: string,
  store: MediaStore | null,
  db: Kysely<QuireDatabase>,
  settings: ImageVariantSettings | null,
  media: readonly string[],
): Promise<WriteCounts & { made: number }> {
  // An export that never made variants, and is not asked to, has nothing to look for.
  if (!settings && !(await recordedVariantSettings(dir))) return { written: 0, unchanged: 0, removed: 0, made: 0 };
  const previous = await previousManifests(dir);
  const folder = new ExportFolder(dir);
  let made = 0;
  if (settings) {
    const paths = media
      .filter((path) => path.startsWith(MEDIA_URL_PREFIX))
      .map((path) => path.slice(MEDIA_URL_PREFIX.length));
    const variants = new ExportImageVariants(folder, store, db, settings, paths, previous);
    for (const path of paths) await variants.add(path);
    made = variants.made;
    await folder.writeJson(VARIANT_SETTINGS_FILE, settings);
  }
  const stale = [VARIANT_SETTINGS_FILE];
  for (const [relative, manifest] of previous) {
    stale.push(manifestPath(relative));
    for (const source of manifest.sources) for (const file of source.files) stale.push(file.path.slice(1));
  }
  await folder.removeStale(stale);
  return { ...folder.counts, made };
}

/** The settings the export in `dir` recorded, or null when it made no variants. */
export async function recordedVariantSettings(dir: string): Promise<ImageVariantSettings | null> {
  try {
    const recorded = JSON.parse(await readFile(join(dir, VARIANT_SETTINGS_FILE), 'utf8')) as ImageVariantSettings;
    return Array.isArray(recorded.widths) && Array.isArray(recorded.formats) ? recorded : null;
  } catch {
    return null;
  }
}

/**
 * The manifests an earlier export left under `media/`, by the original's path after `/media/`,
 * found without following links; a file that is not a well-formed manifest is left out.
 */
async function previousManifests(dir: string): Promise<Map<string, ImageManifest>> {
  const found = new Map<string, ImageManifest>();
  const walk = async (segments: string[]): Promise<void> => {
    const entries = await readdir(join(dir, 'media', ...segments), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory()) await walk([...segments, entry.name]);
      else if (entry.isFile() && entry.name.endsWith('.json')) {
        const relative = [...segments, entry.name.slice(0, -'.json'.length)].join('/');
        const manifest = await readManifest(join(dir, 'media', ...segments, entry.name));
        if (manifest) found.set(relative, manifest);
      }
    }
  };
  await walk([]);
  return found;
}

/** A manifest file, or null (unreadable, a link, or not one). */
async function readManifest(file: string): Promise<ImageManifest | null> {
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  try {
    handle = await open(file, READ_NO_FOLLOW);
    const manifest = JSON.parse(await handle.readFile('utf8')) as ImageManifest;
    const wellFormed =
      typeof manifest.hash === 'string' &&
      typeof manifest.width === 'number' &&
      Array.isArray(manifest.widths) &&
      Array.isArray(manifest.sources) &&
      manifest.sources.every(
        (source) =>
          Array.isArray(source.files) &&
          source.files.every((file) => typeof file.path === 'string' && isVariantPath(file.path)),
      );
    return wellFormed ? manifest : null;
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

/** A `/media/...` path with no `.` or `..` segment: what a manifest may name as a variant. */
function isVariantPath(path: string): boolean {
  return (
    path.startsWith(MEDIA_URL_PREFIX) &&
    !path
      .split('/')
      .slice(2)
      .some((segment) => ['', '.', '..'].includes(segment))
  );
}

/** The alt text and focal point the library gives an original (none and the centre when it has no record). */
function described(record: Described): Pick<ImageManifest, 'alt' | 'focal'> {
  return record ? { alt: record.alt, focal: { x: record.focal_x, y: record.focal_y } } : { alt: '', focal: CENTRE };
}

async function sha256(bytes: Buffer): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
}
