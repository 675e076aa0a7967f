import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useId, useState } from 'react';
import { mayChangeRow } from '../../../common/access-rules.js';
import type { UploadResponse } from '../../../common/api-contract.js';
import type { MediaAssetDetail } from '../../../common/asset-contract.js';
import { ASSET_TEXT_LIMITS } from '../../../common/asset-rules.js';
import { isMediaPath } from '../../../common/media-rules.js';
import { describeError } from '../api/api-error.js';
import { useAuth } from '../api/auth-context.js';
import { mediaApi } from '../api/media-api.js';
import { useT } from '../i18n/use-t.js';
import { ImageSize } from './image-size.js';

/** The query of the asset an image value names, shared by every field showing that path. */
const assetQueryKey = (path: string) => ['media-by-path', path] as const;

/** What an image field says of its image. */
export interface LibraryDescriptionProps {
  /** The field's value: a `/media/...` path. */
  path: string;
  /** The upload's answer for this path, shown until the library answers. */
  known: UploadResponse | null;
  /** The field's label, naming the alt text's input and button. */
  label: string;
}

/** ImageDescription once its chunk has loaded: the asset read by path, its size, and its alt text. */
export function LibraryDescription({ path, known, label }: LibraryDescriptionProps) {
  const { data: asset } = useQuery({
    queryKey: assetQueryKey(path),
    queryFn: () => mediaApi.byPath(path),
    enabled: isMediaPath(path),
  });
  return (
    <>
      <ImageSize image={asset ?? known} />
      {asset && <Crops asset={asset} />}
      {asset && <AltText key={asset.id} asset={asset} label={label} />}
    </>
  );
}

/** The boxes a site most often crops to, drawn at twice their size for sharp screens. */
const CROPS = [
  { name: 'square', width: 72, height: 72 },
  { name: 'wide', width: 128, height: 72 },
] as const;

/**
 * How the image crops at its focal point: the server's own crops (`fit=cover`, which cuts around
 * the focal point the media library holds), so what is shown is what a site gets.
 */
function Crops({ asset }: { asset: MediaAssetDetail }) {
  const t = useT('fields');
  if (!asset.width || !asset.height) return null;
  return (
    <figure className="image-crops">
      {CROPS.map((crop) => (
        <img
          key={crop.name}
          src={`${asset.path}?w=${crop.width * 2}&h=${crop.height * 2}&fit=cover&v=${asset.hash}`}
          width={crop.width}
          height={crop.height}
          alt=""
          loading="lazy"
        />
      ))}
      <figcaption className="image-meta">{t('image.crops')}</figcaption>
    </figure>
  );
}

function AltText({ asset, label }: { asset: MediaAssetDetail; label: string }) {
  const t = useT('fields');
  const { me } = useAuth();
  const queries = useQueryClient();
  const inputId = useId();
  const warningId = useId();
  const [draft, setDraft] = useState(asset.alt);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const mayChange = me.can.upload && mayChangeRow(me.can, me.name, asset.uploaded_by);
  const missing = asset.alt === '';
  const warning = missing ? (
    <p id={warningId} className="image-meta image-alt-missing">
      {t('image.altMissing')}
    </p>
  ) : null;

  if (!mayChange) {
    return missing ? warning : <p className="image-meta">{t('image.alt', { alt: asset.alt })}</p>;
  }
  const changed = draft.trim() !== asset.alt;
  const save = async () => {
    if (!changed || saving) return;
    setSaving(true);
    setFailure(null);
    try {
      const answer = await mediaApi.change(asset.id, { alt: draft.trim() });
      queries.setQueryData<MediaAssetDetail>(assetQueryKey(asset.path), { ...asset, ...answer });
      setSaved(true);
    } catch (problem) {
      setFailure(t('image.altFailed', { reason: describeError(problem) }));
    } finally {
      setSaving(false);
    }
  };
  // Enter saves the alt text, not the row the field is part of.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void save();
  };
  return (
    <div className="image-alt">
      <label htmlFor={inputId} className="image-meta">
        {t('image.altLabel', { label })}
      </label>
      <div className="image-alt-row">
        <input
          id={inputId}
          className="input"
          value={draft}
          maxLength={ASSET_TEXT_LIMITS.alt}
          onChange={(event) => {
            setDraft(event.target.value);
            setSaved(false);
          }}
          onKeyDown={onKeyDown}
          aria-describedby={missing ? warningId : undefined}
        />
        <button
          type="button"
          className="button button-small"
          onClick={() => void save()}
          disabled={!changed || saving}
          aria-label={t('image.saveAltLabel', { label })}
        >
          {t('image.saveAlt')}
        </button>
      </div>
      {warning}
      <p className="image-meta" role="status">
        {saved ? t('image.altSaved') : ''}
      </p>
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}
