import type { MediaAsset } from '../../../common/asset-contract.js';
import { thumbnailUrl } from '../api/media-api.js';
import { useT } from '../i18n/use-t.js';
import '../styles/media.css';

/** One thumbnail: a button naming the file (and its alt text, which the image carries). */
function MediaTile({ asset, onOpen }: { asset: MediaAsset; onOpen(): void }) {
  const t = useT('pages-media');
  return (
    <button type="button" className="media-tile" onClick={onOpen} data-testid="media-tile" title={asset.file_name}>
      <img src={thumbnailUrl(asset)} alt={asset.alt} loading="lazy" width={120} height={120} />
      <span className="media-tile-name">{asset.file_name}</span>
      {asset.alt === '' && <span className="media-tile-flag">{t('noAlt')}</span>}
    </button>
  );
}

/**
 * A page of the media library as a grid of thumbnails, one button each; a thumbnail opens its asset
 * (the Media screen's details, the image field's choice). `label` names the list when nothing
 * around it does.
 */
export function MediaGrid({
  assets,
  onOpen,
  label,
}: {
  assets: readonly MediaAsset[];
  onOpen(asset: MediaAsset): void;
  label?: string;
}) {
  return (
    <ul className="media-grid" aria-label={label}>
      {assets.map((asset) => (
        <li key={asset.id}>
          <MediaTile asset={asset} onOpen={() => onOpen(asset)} />
        </li>
      ))}
    </ul>
  );
}
