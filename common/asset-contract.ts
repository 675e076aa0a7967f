/**
 * The media library's wire shapes (`/api/media`): an asset, where it is used, a list page, and
 * what a row read carries about its images. Pure types, shared by the server and the editor.
 */
import type { UploadMediaType } from './api-contract.js';

/** A point of an image, each coordinate from 0 (left, top) to 1 (right, bottom). */
export interface FocalPoint {
  x: number;
  y: number;
}

/** One stored upload and what describes it. */
export interface MediaAsset {
  id: string;
  /** `/media/YYYY/MM/<uuidv7>.<ext>`: the value rows hold; it never changes, even when the file is replaced. */
  path: string;
  /** The name the file had when it was uploaded (or its stored name, for uploads older than the library). */
  file_name: string;
  type: UploadMediaType;
  /** Bytes. */
  size: number;
  /** Pixels, when the file's header tells (not for AVIF); null otherwise. */
  width: number | null;
  height: number | null;
  /** sha256 of the stored bytes, in hex: it changes when the file is replaced. */
  hash: string;
  alt: string;
  caption: string;
  credit: string;
  focal: FocalPoint;
  folder: string | null;
  uploaded_by: string | null;
  uploaded_at: string;
  updated_at: string;
}

/** A row that names an asset's path, and the fields that do. */
export interface AssetUse {
  /** The content type's slug and table. */
  type: string;
  table: string;
  row: string;
  fields: string[];
}

/** `GET /api/media/:id`: the asset and the rows that use it. */
export interface MediaAssetDetail extends MediaAsset {
  /** Rows the caller may read that name the asset, by type and id. */
  used_in: AssetUse[];
  /** Rows of content types the caller may not read that name it, counted only. */
  used_elsewhere: number;
}

/** `GET /api/media`: a page of the library. */
export interface MediaListResponse {
  /** Assets in the library. */
  total: number;
  /** Assets matching the search and filters. */
  filtered: number;
  /** Assets in `assets`. */
  count: number;
  assets: MediaAsset[];
}

/** `PATCH /api/media/:id`: what describes an asset; members left out keep their values. */
export interface MediaAssetPatch {
  alt?: string;
  caption?: string;
  credit?: string;
  focal?: FocalPoint;
  /** null (or "") takes the asset out of any folder. */
  folder?: string | null;
}

/** What a row read carries for each image value, under `media`, keyed by the value's path. */
export interface ImageLayout {
  alt: string;
  width: number | null;
  height: number | null;
  focal: FocalPoint;
  /** The asset's content hash: the `v` of its variant URLs, so a replaced file gets new ones. */
  hash: string;
}
