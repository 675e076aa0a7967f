import { rmdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { listMediaFiles, type MediaFile, mediaFileLocation } from './media-files.js';
import { type MediaReferenceSource, referencedMedia } from './media-references.js';

/**
 * Uploads that nothing uses: stored files no reference source names (see media-references.ts).
 * A file uploaded less than PRUNE_GRACE_MS ago is never counted: an upload is stored before the row
 * that names it is saved, and an editor may be about to save it.
 */

/** How old an unused upload must be before it counts as unused. */
export const PRUNE_GRACE_MS = 60 * 60 * 1000;

/** The unused uploads of a media folder. */
export interface UnusedMedia {
  files: MediaFile[];
  bytes: number;
  /** All stored files, used or not. */
  total: number;
}

/**
 * Finds the stored files (under the folder `root`, or as a store lists them) that no source names
 * and that are older than the grace period.
 */
export async function findUnusedMedia(
  root: string | (() => Promise<MediaFile[]>),
  sources: readonly MediaReferenceSource[],
  now: number = Date.now(),
): Promise<UnusedMedia> {
  // Files first, references second: a file stored in between is young, so never counted.
  const stored = await (typeof root === 'string' ? listMediaFiles(root) : root());
  const used = await referencedMedia(sources);
  const files = stored.filter((file) => !used.has(file.path) && now - file.mtimeMs >= PRUNE_GRACE_MS);
  return { files, bytes: files.reduce((sum, file) => sum + file.size, 0), total: stored.length };
}

/**
 * Deletes the unused uploads, found afresh (never from an earlier dry run's list: a row saved since
 * may name one now), then month and year folders left empty.
 */
export async function pruneUnusedMedia(root: string, sources: readonly MediaReferenceSource[]): Promise<UnusedMedia> {
  const unused = await findUnusedMedia(root, sources);
  const folders = new Set<string>();
  for (const file of unused.files) {
    const location = mediaFileLocation(root, file.path);
    if (!location) continue;
    await unlink(location).catch(() => undefined);
    folders.add(dirname(location));
  }
  for (const folder of folders) {
    // Fails, as it should, when the folder still holds files.
    await rmdir(folder)
      .then(() => rmdir(dirname(folder)))
      .catch(() => undefined);
  }
  return unused;
}
