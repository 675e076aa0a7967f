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

/** Where uploads are kept, for pruning: a media folder (a path), or a store that lists and deletes. */
export interface PrunableMedia {
  list(): Promise<MediaFile[]>;
  /** Deletes these stored files (one already gone is no error). */
  remove(files: readonly MediaFile[]): Promise<void>;
}

/**
 * Deletes the unused uploads, found afresh (never from an earlier dry run's list: a row saved since
 * may name one now); in a media folder, also month and year folders left empty.
 */
export async function pruneUnusedMedia(
  root: string | PrunableMedia,
  sources: readonly MediaReferenceSource[],
): Promise<UnusedMedia> {
  const store = typeof root === 'string' ? mediaFolder(root) : root;
  const unused = await findUnusedMedia(() => store.list(), sources);
  await store.remove(unused.files);
  return unused;
}

/** A media folder as a prunable store. */
function mediaFolder(root: string): PrunableMedia {
  return {
    list: () => listMediaFiles(root),
    async remove(files) {
      const folders = new Set<string>();
      for (const file of files) {
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
    },
  };
}
