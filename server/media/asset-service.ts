import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Kysely } from 'kysely';
import { abilitiesOf, mayChangeRow, typeAllowed } from '../../common/access-rules.js';
import type { UploadMediaType, UploadResponse } from '../../common/api-contract.js';
import type {
  AssetUse,
  ImageLayout,
  MediaAsset,
  MediaAssetDetail,
  MediaListResponse,
} from '../../common/asset-contract.js';
import { parseAssetPatch } from '../../common/asset-rules.js';
import { timestampNow } from '../../common/datetime-syntax.js';
import { isMediaPath, MEDIA_URL_PREFIX, parseRelativeMediaPath } from '../../common/media-rules.js';
import type { Principal } from '../accounts/principal.js';
import { recordMediaRemovedInFeed } from '../changes/change-feed-service.js';
import type { ContentType } from '../content/content-type.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import { ROW_MEDIA_MEMBER } from '../content/row-input.js';
import type { RowDecorator } from '../content/row-service.js';
import type { DatabaseEngine } from '../db/engine.js';
import {
  type AssetChanges,
  type AssetQuery,
  type AssetRecord,
  AssetRepository,
  type RowHolding,
} from '../db/repositories/asset-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError, validationError } from '../errors/app-error.js';
import { imageSize, sniffImage } from './image-sniffing.js';
import type { MediaFile } from './media-files.js';
import type { MediaName } from './media-path.js';
import type { MediaReferenceSource } from './media-references.js';
import { referencedMedia } from './media-references.js';
import type { MediaStore } from './media-store.js';
import { receiveUpload } from './multipart-upload.js';
import { imageShowingColumns, mediaPathsOfRow } from './row-media-paths.js';
import { cleanArrivingSvg } from './stored-svg-check.js';
import { shapeOf } from './variant-cache.js';

/** Where the library records what happens to files: the change feed. */
export interface AssetFeed {
  recordMedia(path: string, by: string | null): Promise<void>;
}

/** What the library keeps its assets with. */
export interface AssetServiceOptions {
  db: Kysely<QuireDatabase>;
  engine: DatabaseEngine;
  store: MediaStore;
  /** Where rows may name uploads (what the `unused` filter reads). */
  sources: () => readonly MediaReferenceSource[];
  registry: ContentTypeRegistry;
  feed: AssetFeed;
  /** Deletes the cached variants of the file with this content hash (its file replaced or deleted). */
  removeVariants?: (hash: string) => Promise<void>;
  /** Where a stored file the library changed or refused is reported (one line each); the console's warnings when left out. */
  log?: (line: string) => void;
}

/** A kept upload's asset, and whether it is new (false: the same bytes were in the library already). */
export interface UploadedAsset {
  asset: MediaAsset;
  created: boolean;
}

/** Column types whose values may hold a media path (an image's value, or one embedded in text or JSON). */
const TEXT_LIKE = new Set(['image', 'text', 'textarea', 'markdown', 'richtext', 'tags', 'blocks']);

/** Query parameters of `GET /api/media`. */
const LIST_PARAMETERS = new Set(['search', 'folder', 'type', 'unused', 'order', 'desc', 'limit', 'offset']);
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const MAX_OFFSET = 1_000_000_000;
const ORDERS: readonly AssetQuery['order'][] = ['uploaded_at', 'updated_at', 'file_name', 'size'];

/**
 * The media library: one asset per stored upload, with its description, and the rows that use it.
 * Every upload becomes an asset (the same bytes uploaded again give back the asset they are, unless
 * a duplicate is asked for); a replaced file keeps its asset and path; a used asset is deleted only
 * when forced. Who may change an asset follows the rows' rule: anyone who may change any row, or
 * an author their own uploads.
 */
export class AssetService {
  private readonly repository: AssetRepository;
  /** Uploads being added, by hash: the second of two equal uploads waits and finds the first. */
  private readonly adding = new Map<string, Promise<unknown>>();

  constructor(private readonly options: AssetServiceOptions) {
    this.repository = new AssetRepository(options.db);
  }

  /**
   * Gives every stored file without an asset its asset (uploads kept before the library, or
   * copied in beside the database): its name, kind, pixel size and hash read from its bytes.
   * An SVG among them is cleaned first, as an upload is (see `cleanStoredSvg`). Returns how many
   * were added.
   */
  async adoptStored(): Promise<number> {
    const [files, known] = await Promise.all([this.options.store.list(), this.repository.paths()]);
    let added = 0;
    for (const file of files) {
      const path = `${MEDIA_URL_PREFIX}${file.path}`;
      if (known.has(path)) continue;
      let bytes = await this.bytesOf(path);
      const kind = bytes ? sniffImage(bytes.subarray(0, 4096)) : null;
      if (!bytes || !kind) continue;
      if (kind.type === 'image/svg+xml') {
        bytes = await this.cleanStoredSvg(file.path, bytes);
        if (!bytes) continue;
      }
      const pixels = kind.type === 'image/svg+xml' ? await shapeOf(bytes) : imageSize(kind, bytes);
      const at = timestampNow(new Date(file.mtimeMs));
      const inserted = await this.repository.insert({
        id: randomUUID(),
        path,
        file_name: file.path.slice(file.path.lastIndexOf('/') + 1),
        media_type: kind.type,
        size: bytes.length,
        width: pixels?.width ?? null,
        height: pixels?.height ?? null,
        content_hash: sha256(bytes),
        alt: '',
        caption: '',
        credit: '',
        focal_x: 0.5,
        focal_y: 0.5,
        folder: null,
        uploaded_by: null,
        uploaded_at: at,
        updated_at: at,
      });
      if (inserted) added++;
    }
    await this.reconcileDrawings(files.filter((file) => known.has(`${MEDIA_URL_PREFIX}${file.path}`)));
    return added;
  }

  /**
   * Brings the SVG assets among `files` up to their files: one whose file is not the size recorded
   * (a restore cleaned it) gets its size and hash again, and one kept without a pixel size (an SVG
   * with no width, height or viewBox once was) gets the size a browser draws it at.
   */
  private async reconcileDrawings(files: readonly MediaFile[]): Promise<void> {
    const sizes = new Map(
      files.filter((file) => file.path.endsWith('.svg')).map((file) => [`${MEDIA_URL_PREFIX}${file.path}`, file.size]),
    );
    if (sizes.size === 0) return;
    for (const record of await this.repository.findByPaths([...sizes.keys()])) {
      const resized = sizes.get(record.path) !== record.size;
      if (record.media_type !== 'image/svg+xml' || (!resized && record.width && record.height)) continue;
      const bytes = await this.bytesOf(record.path);
      if (!bytes) continue;
      const shape = await shapeOf(bytes);
      await this.repository.update(record.id, {
        width: shape?.width ?? null,
        height: shape?.height ?? null,
        ...(resized ? { size: bytes.length, content_hash: sha256(bytes) } : {}),
      });
    }
  }

  /**
   * Makes a kept upload an asset. Unless `duplicate`, an upload whose bytes an asset already has is
   * removed again and that asset is the answer.
   */
  async addUpload(
    kept: UploadResponse,
    fileName: string | null,
    by: string | null,
    duplicate: boolean,
  ): Promise<UploadedAsset> {
    const hash = await this.hashOf(kept.path);
    return this.oneAtATime(hash, async () => {
      if (!duplicate) {
        const existing = await this.repository.findByHash(hash, kept.path);
        if (existing) {
          await this.options.store.remove(relativeOf(kept.path));
          return { asset: assetJson(existing), created: false };
        }
      }
      const now = timestampNow();
      const record: AssetRecord = {
        id: randomUUID(),
        path: kept.path,
        file_name: fileName ?? kept.path.slice(kept.path.lastIndexOf('/') + 1),
        media_type: kept.type,
        size: kept.size,
        width: kept.width ?? null,
        height: kept.height ?? null,
        content_hash: hash,
        alt: '',
        caption: '',
        credit: '',
        focal_x: 0.5,
        focal_y: 0.5,
        folder: null,
        uploaded_by: by,
        uploaded_at: now,
        updated_at: now,
      };
      await this.repository.insert(record);
      await this.options.feed.recordMedia(kept.path, by);
      return { asset: assetJson(record), created: true };
    });
  }

  /** `GET /api/media`: a page of the library as `query` (the request's parameters) asks. */
  async list(query: Record<string, unknown>): Promise<MediaListResponse> {
    const { selection, page, unused } = parseListQuery(query);
    const total = await this.repository.count();
    if (unused === undefined) {
      const { assets, filtered } = await this.repository.list(selection, page);
      return { total, filtered, count: assets.length, assets: assets.map(assetJson) };
    }
    // Which files rows name is known only by reading the rows (as the unused count does): the
    // selection is filtered here, then paged.
    const used = await referencedMedia(this.options.sources());
    const { assets } = await this.repository.list(selection);
    const matching = assets.filter((asset) => used.has(relativeOf(asset.path)) !== unused);
    const shown = matching.slice(page.offset, page.offset + page.limit);
    return { total, filtered: matching.length, count: shown.length, assets: shown.map(assetJson) };
  }

  /** `GET /api/media/:id`: the asset and the rows naming it (those of types the caller may not read counted only). */
  async get(id: string, principal: Principal | null): Promise<MediaAssetDetail> {
    return this.detailOf(await this.require(id), principal);
  }

  /**
   * `GET /api/media/by-path?path=/media/...`: the asset a row's value names, as `get` answers it
   * (what an image field shows of a value saved earlier). A path the server never issues is a 400.
   */
  async getByPath(path: string, principal: Principal | null): Promise<MediaAssetDetail> {
    if (!isMediaPath(path)) {
      throw new AppError('bad_request', 'path must be a media path as uploads give it: /media/YYYY/MM/<id>.<ext>');
    }
    const [asset] = await this.repository.findByPaths([path]);
    if (!asset) throw new AppError('not_found', `No media asset has the path ${JSON.stringify(path)}`);
    return this.detailOf(asset, principal);
  }

  /** `PATCH /api/media/:id`: changes its description (400 with field problems, changing nothing). */
  async update(id: string, body: unknown, principal: Principal | null): Promise<MediaAsset> {
    const parsed = parseAssetPatch(body);
    if (parsed.problems) throw validationError(parsed.problems);
    const asset = await this.require(id);
    assertMayChange(asset, principal);
    const { focal, ...texts } = parsed.patch;
    const changes: AssetChanges = { ...texts, updated_at: timestampNow() };
    if (focal) {
      changes.focal_x = focal.x;
      changes.focal_y = focal.y;
    }
    if (!(await this.repository.update(id, changes))) throw notFound(id);
    const updated = await this.require(id);
    await this.options.feed.recordMedia(updated.path, principal?.name ?? null);
    return assetJson(updated);
  }

  /**
   * `PUT /api/media/:id/file`: a new file of the same format at the asset's path, so every row
   * naming it shows the new one; its name, size, pixel size and hash are the new file's.
   */
  async replace(id: string, req: IncomingMessage, maxBytes: number, principal: Principal | null): Promise<MediaAsset> {
    const asset = await this.require(id);
    assertMayChange(asset, principal);
    const at = mediaNameOf(asset.path);
    const { kept, fileName } = await receiveUpload(req, this.options.store, maxBytes, async (pending) => {
      if (pending.kind.type !== asset.media_type) {
        await pending.discard();
        throw new AppError(
          'unsupported_media_type',
          `The replacement is ${pending.kind.type}, and this asset's path stands for ${asset.media_type}: replace it with a file of the same format, or upload the new one as an asset of its own`,
        );
      }
      return pending.commit(at);
    });
    const changes: AssetChanges = {
      file_name: fileName ?? asset.file_name,
      size: kept.size,
      width: kept.width ?? null,
      height: kept.height ?? null,
      content_hash: await this.hashOf(asset.path),
      updated_at: timestampNow(),
    };
    await this.repository.update(id, changes);
    const updated = assetJson({ ...asset, ...changes });
    // Variants are kept by the content hash, which changed: those of the old bytes are never served again.
    if (changes.content_hash !== asset.content_hash) await this.options.removeVariants?.(asset.content_hash);
    await this.options.feed.recordMedia(asset.path, principal?.name ?? null);
    return updated;
  }

  /**
   * `DELETE /api/media/:id`: the asset and its file. While rows name it, a 409 names them, unless
   * `force` (the rows then name a file that is gone).
   */
  async remove(id: string, force: boolean, principal: Principal | null): Promise<MediaAsset> {
    const asset = await this.require(id);
    assertMayChange(asset, principal);
    if (!force) {
      const uses = await this.usesOf(asset.path, principal);
      const count = uses.visible.length + uses.hidden;
      if (count > 0) {
        const named = uses.visible.map((use) => `${use.type}/${use.row}`);
        const others = uses.hidden > 0 ? ` and ${uses.hidden} row(s) you may not read` : '';
        throw new AppError(
          'conflict',
          `The asset is used by ${count} row(s): ${named.join(', ')}${others}; remove it from them first, or delete with ?force=true`,
          undefined,
          { code: 'media_in_use', count, rows: named },
        );
      }
    }
    await this.repository.delete(id);
    await this.options.store.remove(relativeOf(asset.path));
    await this.options.removeVariants?.(asset.content_hash);
    await recordMediaRemovedInFeed(this.options.db, this.options.engine, [asset.path]);
    return assetJson(asset);
  }

  /**
   * Adds `media` to each row read that shows images (row-media-paths.ts): for each path, its alt
   * text, pixel size and focal point, so a site lays out every image without asking again. One
   * query a page. A type with a column of its own named `media` keeps it.
   */
  readonly decorate: RowDecorator = async (type, rows) => {
    const columns = imageShowingColumns(type);
    if (columns.length === 0) return;
    const shown = rows.map((row) => mediaPathsOfRow(row, columns));
    const paths = new Set(shown.flat());
    if (paths.size === 0) return;
    const found = new Map((await this.repository.findByPaths([...paths])).map((asset) => [asset.path, asset]));
    rows.forEach((row, index) => {
      const media: Record<string, ImageLayout> = {};
      for (const path of shown[index]) {
        const asset = found.get(path);
        if (asset) media[path] = layoutOf(asset);
      }
      if (Object.keys(media).length > 0) (row as Record<string, unknown>)[ROW_MEDIA_MEMBER] = media;
    });
  };

  private async require(id: string): Promise<AssetRecord> {
    const asset = await this.repository.findById(id);
    if (!asset) throw notFound(id);
    return asset;
  }

  private async detailOf(asset: AssetRecord, principal: Principal | null): Promise<MediaAssetDetail> {
    const uses = await this.usesOf(asset.path, principal);
    return { ...assetJson(asset), used_in: uses.visible, used_elsewhere: uses.hidden };
  }

  /** The rows naming `path`: those of types `principal` may read, and how many others. */
  private async usesOf(path: string, principal: Principal | null): Promise<{ visible: AssetUse[]; hidden: number }> {
    const types = this.options.registry.list();
    const byTable = new Map<string, ContentType>(types.map((type) => [type.table, type]));
    const holding: RowHolding[] = await this.repository.rowsNaming(
      path,
      types.map((type) => ({
        table: type.table,
        columns: [...type.columns.filter((column) => TEXT_LIKE.has(column.type)).map((column) => column.name), 'meta'],
      })),
    );
    const limit = principal?.types ?? null;
    const visible: AssetUse[] = [];
    let hidden = 0;
    for (const place of holding) {
      const type = byTable.get(place.table) as ContentType;
      if (!typeAllowed(limit, type)) {
        hidden++;
        continue;
      }
      visible.push({ type: type.slug, table: type.table, row: place.id, fields: place.columns });
    }
    return { visible, hidden };
  }

  /**
   * An SVG that did not come through an upload, cleaned as an upload is before it becomes an
   * asset: the site serves and exports it like any upload, so it must be as harmless. Cleaning
   * that changes it, or refuses it whole, never does so unseen: the store keeps the file as it was
   * aside and a log line names both. The bytes to keep, or null when none are (refused).
   */
  private cleanStoredSvg(relative: string, bytes: Buffer): Promise<Buffer | null> {
    return cleanArrivingSvg({
      path: relative,
      bytes,
      how: 'that did not come through an upload',
      setAside: (replacement) => this.options.store.setAside(relative, replacement),
      log: this.options.log ?? ((line) => console.warn(line)),
    });
  }

  private async bytesOf(path: string): Promise<Buffer | null> {
    const found = await this.options.store.find(relativeOf(path));
    if (!found) return null;
    if ('bytes' in found) return found.bytes;
    const chunks: Buffer[] = [];
    for await (const chunk of createReadStream(found.file)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** sha256 of the bytes stored at a media path, as kept (read back, so it is of the bytes served). */
  private async hashOf(path: string): Promise<string> {
    const found = await this.options.store.find(relativeOf(path));
    if (!found) throw new AppError('internal_error', 'The upload was kept but cannot be read back');
    if ('bytes' in found) return sha256(found.bytes);
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(found.file)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  private async oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.adding.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => undefined);
    this.adding.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.adding.get(key) === settled) this.adding.delete(key);
    }
  }
}

/** An asset as the API shows it. */
export function assetJson(record: AssetRecord): MediaAsset {
  return {
    id: record.id,
    path: record.path,
    file_name: record.file_name,
    type: record.media_type as UploadMediaType,
    size: record.size,
    width: record.width,
    height: record.height,
    hash: record.content_hash,
    alt: record.alt,
    caption: record.caption,
    credit: record.credit,
    focal: { x: record.focal_x, y: record.focal_y },
    folder: record.folder,
    uploaded_by: record.uploaded_by,
    uploaded_at: record.uploaded_at,
    updated_at: record.updated_at,
  };
}

function layoutOf(asset: AssetRecord): ImageLayout {
  return {
    alt: asset.alt,
    width: asset.width,
    height: asset.height,
    focal: { x: asset.focal_x, y: asset.focal_y },
    hash: asset.content_hash,
  };
}

/** Whether `principal` may change the asset: as for rows, an author only their own uploads. */
function assertMayChange(asset: AssetRecord, principal: Principal | null): void {
  if (!principal) return;
  const can = abilitiesOf(principal.role);
  if (can.upload && mayChangeRow(can, principal.name, asset.uploaded_by)) return;
  const who = principal.name === null ? `This ${principal.role}` : `${principal.name} (${principal.role})`;
  throw new AppError('forbidden', `${who} may not change this asset: authors change only their own uploads`);
}

function notFound(id: string): AppError {
  return new AppError('not_found', `There is no media asset ${JSON.stringify(id)}`);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `/media/2026/03/<id>.png` -> `2026/03/<id>.png`. */
function relativeOf(path: string): string {
  return path.slice(MEDIA_URL_PREFIX.length);
}

function mediaNameOf(path: string): MediaName {
  const segments = parseRelativeMediaPath(relativeOf(path));
  if (!segments) throw new AppError('internal_error', `The asset's path ${path} is not a media path`);
  const [year, month, fileName] = segments;
  return { path, folders: [year, month], fileName };
}

/** Reads `GET /api/media`'s parameters; an unknown or malformed one is a 400. */
function parseListQuery(query: Record<string, unknown>): {
  selection: AssetQuery;
  page: { limit: number; offset: number };
  unused: boolean | undefined;
} {
  for (const name of Object.keys(query)) {
    if (!LIST_PARAMETERS.has(name)) {
      throw new AppError(
        'bad_request',
        `Unknown query parameter ${JSON.stringify(name)}; use ${[...LIST_PARAMETERS].join(', ')}`,
      );
    }
  }
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new AppError('bad_request', `${name} must be given once`);
    return value;
  };
  const search = text('search')?.trim();
  if (search !== undefined && search.length > 200)
    throw new AppError('bad_request', 'search must be at most 200 characters');
  const type = text('type');
  if (type !== undefined && !/^[a-z]+\/[a-z0-9.+-]*$/.test(type)) {
    throw new AppError('bad_request', 'type must be a media type (image/png) or a family (image/)');
  }
  const order = text('order') ?? 'uploaded_at';
  if (!(ORDERS as readonly string[]).includes(order)) {
    throw new AppError('bad_request', `order must be one of ${ORDERS.join(', ')}`);
  }
  const explicitDesc = flag(text('desc'), 'desc');
  return {
    selection: {
      search: search || undefined,
      folder: text('folder'),
      type,
      order: order as AssetQuery['order'],
      // Newest first unless told otherwise.
      desc: explicitDesc ?? order === 'uploaded_at',
    },
    page: {
      limit: wholeNumber(text('limit'), 'limit', DEFAULT_LIMIT, MAX_LIMIT),
      offset: wholeNumber(text('offset'), 'offset', 0, MAX_OFFSET),
    },
    unused: flag(text('unused'), 'unused'),
  };
}

function flag(raw: string | undefined, name: string): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = raw.toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new AppError('bad_request', `${name} must be true or false`);
}

function wholeNumber(raw: string | undefined, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > max) {
    throw new AppError('bad_request', `${name} must be a whole number from 0 to ${max}`);
  }
  return Number(raw);
}
