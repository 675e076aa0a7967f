import { formatNumber } from '../i18n/formatters.js';
import { useT } from '../i18n/use-t.js';
import { formatBytes } from './image-upload.js';

/** An image's pixel size and bytes, or how to replace it when neither is known. */
export function ImageSize({
  image,
}: {
  image: { width?: number | null; height?: number | null; size: number } | null;
}) {
  const t = useT('fields');
  return (
    <p className="image-meta">
      {image
        ? image.width && image.height
          ? t('image.dimensions', {
              width: formatNumber(image.width),
              height: formatNumber(image.height),
              size: formatBytes(image.size),
            })
          : formatBytes(image.size)
        : t('image.dropToReplace')}
    </p>
  );
}
