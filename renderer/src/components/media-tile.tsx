import type { MediaAsset } from '../../../common/asset-contract.js';
import { thumbnailUrl } from '../api/media-api.js';
import { useT } from '../i18n/use-t.js';
import '../styles/media.css';

/** One thumbnail: a button naming the file (and its alt text, which the image carries). */
export function MediaTile({ asset, onOpen, selected }: { asset: MediaAsset; onOpen(): void; selected?: boolean }) {
  const t = useT('pages-media');
  return (
    <button
      type="button"
      className="media-tile"
      onClick={onOpen}
      aria-pressed={selected}
      data-testid="media-tile"
      title={asset.file_name}
    >
      <img src={thumbnailUrl(asset)} alt={asset.alt} loading="lazy" width={120} height={120} />
      <span className="media-tile-name">{asset.file_name}</span>
      {asset.alt === '' && <span className="media-tile-flag">{t('noAlt')}</span>}
    </button>
  );
}
