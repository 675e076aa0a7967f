import type {
  MediaAsset,
  MediaAssetDetail,
  MediaAssetPatch,
  MediaListResponse,
} from '../../../common/asset-contract.js';
import { ApiError, worded } from './api-error.js';
import { call } from './auth-api.js';
import { sessionTokenStore } from './auth-token.js';

/** What the Media screen narrows the library by; empty members are left out. */
export interface MediaQuery {
  search: string;
  /** A media type (`image/png`) or `image/` for every image; empty for all. */
  type: string;
  /** `true`: only assets no row names; empty: all. */
  unused: string;
  folder: string;
}

/** The media library (`/api/media`): list, read, describe, replace and delete assets. */
export const mediaApi = {
  list(query: MediaQuery, limit: number, offset: number): Promise<MediaListResponse> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value.trim() !== '') params.set(name, value.trim());
    params.set('limit', String(limit));
    params.set('offset', String(offset));
    return call<MediaListResponse>('GET', `/media?${params}`);
  },
  get: (id: string) => call<MediaAssetDetail>('GET', `/media/${encodeURIComponent(id)}`),
  /** The asset whose path a row holds (`GET /api/media/by-path`): 404 when no asset has it. */
  byPath: (path: string) => call<MediaAssetDetail>('GET', `/media/by-path?${new URLSearchParams({ path })}`),
  change: (id: string, patch: MediaAssetPatch) => call<MediaAsset>('PATCH', `/media/${encodeURIComponent(id)}`, patch),
  remove: (id: string, force: boolean) =>
    call<MediaAsset>('DELETE', `/media/${encodeURIComponent(id)}${force ? '?force=true' : ''}`),
  /** Replaces the asset's file with one of the same format (`PUT /api/media/:id/file`). */
  async replace(id: string, file: File): Promise<MediaAsset> {
    const form = new FormData();
    form.append('file', file, file.name);
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = sessionTokenStore().get();
    if (token) headers.Authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await fetch(`/api/media/${encodeURIComponent(id)}/file`, {
        method: 'PUT',
        headers,
        body: form,
        credentials: 'same-origin',
      });
    } catch {
      throw new ApiError(0, 'network_error', 'Cannot reach the Quire server');
    }
    const payload: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw await worded(ApiError.fromBody(response.status, payload));
    return payload as MediaAsset;
  },
};

/** A small square crop of an image for a grid or a picker: a cached variant, keyed by the file's hash. */
export function thumbnailUrl(asset: Pick<MediaAsset, 'path' | 'hash'>, size = 240): string {
  return `${asset.path}?w=${size}&h=${size}&fit=cover&v=${asset.hash}`;
}
