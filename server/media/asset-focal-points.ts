import type { Kysely } from 'kysely';
import { MEDIA_URL_PREFIX } from '../../common/media-rules.js';
import { AssetRepository } from '../db/repositories/asset-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import type { FocalPointSource } from './variant-cache.js';

/**
 * The media library's focal points as the crop centres of variants: one read by path, made only
 * for a `cover` variant with both sides (the one kind that crops), so a changed focal point makes
 * a new variant at once.
 */
export function assetFocalPoints(db: Kysely<QuireDatabase>): FocalPointSource {
  const assets = new AssetRepository(db);
  return async (relative) => {
    const [asset] = await assets.findByPaths([`${MEDIA_URL_PREFIX}${relative}`]);
    return asset ? { x: asset.focal_x, y: asset.focal_y } : null;
  };
}
