import { Suspense } from 'react';
import { lazyNamed } from '../components/lazy-screen.js';
import type { LibraryDescriptionProps } from './image-library-description.js';
import { ImageSize } from './image-size.js';

// What the library says of the image (and the alt text's editor) loads with the first image field shown.
const LibraryDescription = lazyNamed(() => import('./image-library-description.js'), 'LibraryDescription');

/**
 * What the image field shows of its image from the media library (`GET /api/media/by-path`), for
 * a value saved earlier as for one just uploaded or chosen: its pixel size and bytes, and its alt
 * text, which whoever may change the asset edits in place (`PATCH /api/media/:id`). The missing-alt
 * warning follows the saved alt text. A path no asset has shows what the upload told, if anything.
 */
export function ImageDescription(props: LibraryDescriptionProps) {
  return (
    <Suspense fallback={<ImageSize image={props.known} />}>
      <LibraryDescription {...props} />
    </Suspense>
  );
}
