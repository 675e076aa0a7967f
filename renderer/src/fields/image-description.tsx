import { Suspense } from 'react';
import type { UploadResponse } from '../../../common/api-contract.js';
import { lazyNamed } from '../components/lazy-screen.js';
import { formatNumber } from '../i18n/formatters.js';
import { useT } from '../i18n/use-t.js';
import { formatBytes } from './image-upload.js';

// What the library says of the image (and the alt text's editor) loads with the first image field shown.
const LibraryDescription = lazyNamed(() => import('./image-library-description.js'), 'LibraryDescription');

/** What an image field says of its image. */
export interface ImageDescriptionProps {
  /** The field's value: a `/media/...` path. */
  path: string;
  /** The upload's answer for this path, shown until the library answers. */
  known: UploadResponse | null;
  /** The field's label, naming the alt text's input and button. */
  label: string;
}

/**
 * What the image field shows of its image from the media library (`GET /api/media/by-path`), for
 * a value saved earlier as for one just uploaded or chosen: its pixel size and bytes, and its alt
 * text, which whoever may change the asset edits in place (`PATCH /api/media/:id`). The missing-alt
 * warning follows the saved alt text. A path no asset has shows what the upload told, if anything.
 */
export function ImageDescription(props: ImageDescriptionProps) {
  return (
    <Suspense fallback={<ImageSize image={props.known} />}>
      <LibraryDescription {...props} />
    </Suspense>
  );
}

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
