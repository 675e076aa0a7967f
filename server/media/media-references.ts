import { MEDIA_EXTENSIONS } from '../../common/media-rules.js';

/**
 * What still uses a stored media file. A reference is any string value that contains a media path
 * (`/media/YYYY/MM/<uuidv7>.<ext>`): an image column holds the path alone, a Markdown body or a URL
 * field may embed it, a JSON column (tags, meta) holds it inside its text. Each place that can hold
 * such strings is one source; a file is unused only when no source names it.
 */

/** A place that can hold media paths: the content rows today; row revisions can add their own. */
export interface MediaReferenceSource {
  /** Adds every media file it names, as its path under the media folder (`2026/03/<id>.png`). */
  collect(found: Set<string>): Promise<void>;
}

const UUID_V7 = '[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
/**
 * A media path anywhere in a text; the captured part is the path under the media folder. Whatever
 * follows it does not matter: a match too many keeps a file, which is the safe side.
 */
const MEDIA_PATH_IN_TEXT = new RegExp(
  `/media/(\\d{4}/(?:0[1-9]|1[0-2])/${UUID_V7}\\.(?:${MEDIA_EXTENSIONS.join('|')}))`,
  'g',
);

/** The media files a text names, as paths under the media folder. */
export function mediaPathsIn(text: string): string[] {
  return [...text.matchAll(MEDIA_PATH_IN_TEXT)].map((match) => match[1]);
}

/** Every media file any of the sources names. */
export async function referencedMedia(sources: readonly MediaReferenceSource[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const source of sources) await source.collect(found);
  return found;
}
