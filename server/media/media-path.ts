import { v7 as uuidv7 } from 'uuid';
import { MEDIA_URL_PREFIX } from '../../common/media-rules.js';
import { IMAGE_KINDS, type ImageKind } from './image-sniffing.js';

/**
 * Names for stored media. The shape of their public paths (`/media/YYYY/MM/<uuidv7>.<ext>`) is
 * the shared rule in `common/media-rules.ts`: a path of any other shape was never issued and is
 * refused before the file system is touched (no `..`, encoded separators, dotfiles or made-up names).
 */

/** Where a new file goes: its public path and its location relative to the media folder. */
export interface MediaName {
  /** `/media/2026/11/<id>.png` */
  path: string;
  /** `['2026', '11']`: the folders under the media folder. */
  folders: [string, string];
  /** `<id>.png` */
  fileName: string;
}

/** A fresh, unguessable, time-ordered name for a file of this kind, filed under the UTC year and month. */
export function newMediaName(kind: ImageKind, now: Date = new Date()): MediaName {
  const year = String(now.getUTCFullYear()).padStart(4, '0');
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const fileName = `${uuidv7()}.${kind.extension}`;
  return { path: `${MEDIA_URL_PREFIX}${year}/${month}/${fileName}`, folders: [year, month], fileName };
}

/** The allowed kind a stored file name's extension stands for. */
export function kindOfFileName(fileName: string): ImageKind | null {
  const extension = fileName.slice(fileName.lastIndexOf('.') + 1);
  return IMAGE_KINDS.find((kind) => kind.extension === extension) ?? null;
}
