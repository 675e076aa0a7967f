/**
 * The public paths of uploaded media: `/media/YYYY/MM/<uuidv7>.<ext>`. Every name is made by the
 * server, so a path of any other shape was never issued: the server refuses it before touching the
 * file system, and the editor shows only such paths as images.
 */

/** URL prefix media are served under. */
export const MEDIA_URL_PREFIX = '/media/';

/** The extensions stored files get, one per accepted image format (SVG only as cleaned at upload). */
export const MEDIA_EXTENSIONS = ['png', 'jpg', 'gif', 'webp', 'avif', 'svg'] as const;

/** One stored file's extension. */
export type MediaExtension = (typeof MEDIA_EXTENSIONS)[number];

const UUID_V7 = '[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

/** `YYYY/MM/<uuidv7>.<ext>`, the part after `/media/`, with its three pieces captured. */
const RELATIVE_PATH = new RegExp(`^(\\d{4})/(0[1-9]|1[0-2])/(${UUID_V7}\\.(?:${MEDIA_EXTENSIONS.join('|')}))$`);

/**
 * Splits the part of a media path after `/media/` into year, month and file name, or null when it
 * is not a name the server makes. The pieces are safe to join onto the media folder.
 */
export function parseRelativeMediaPath(relative: string): [string, string, string] | null {
  const match = RELATIVE_PATH.exec(relative);
  return match ? [match[1], match[2], match[3]] : null;
}

/**
 * Whether `value` is a path the upload endpoint could have returned (`/media/` + a generated name).
 * A shape check only: it says nothing about whether the file still exists.
 */
export function isMediaPath(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.startsWith(MEDIA_URL_PREFIX) &&
    parseRelativeMediaPath(value.slice(MEDIA_URL_PREFIX.length)) !== null
  );
}
