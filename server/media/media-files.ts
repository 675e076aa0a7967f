import type { Dirent } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parseRelativeMediaPath } from '../../common/media-rules.js';

/**
 * The stored files of a media folder as a set, for backups, restores and pruning. Only generated
 * names count (`YYYY/MM/<uuidv7>.<ext>`): the temporary `.incoming` folder, dotfiles, symlinks and
 * anything else someone put there are not media and are never copied, restored or deleted.
 */

/** One stored file: its path under the media folder (`2026/03/<id>.png`, always with `/`) and size. */
export interface MediaFile {
  path: string;
  size: number;
  /** Last modification, in ms since the epoch (when it was uploaded: files are never changed). */
  mtimeMs: number;
}

/** The stored files under `root`, sorted by path; none when the folder does not exist. */
export async function listMediaFiles(root: string): Promise<MediaFile[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: MediaFile[] = [];
  for (const entry of entries) {
    // A Dirent of a symlink is not a file, so links out of the folder are never followed.
    if (!entry.isFile()) continue;
    const path = relative(root, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (!parseRelativeMediaPath(path)) continue;
    try {
      const info = await stat(join(root, path));
      files.push({ path, size: info.size, mtimeMs: info.mtimeMs });
    } catch {
      // Removed meanwhile (a prune in another process).
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The location of a stored file, or null when `path` is not a generated name (never `..` or absolute). */
export function mediaFileLocation(root: string, path: string): string | null {
  const segments = parseRelativeMediaPath(path);
  return segments ? join(root, ...segments) : null;
}

/**
 * Puts `files` of `from` into `to`: a hard link where the file system allows it (a stored file is
 * never changed in place, so a link is as good as a copy, and a daily backup of unchanged media
 * costs neither space nor time), else a copy. With `skipMissing`, a file deleted since it was
 * listed (pruned meanwhile) is left out; returns the files placed.
 */
export async function placeMediaFiles<File extends Pick<MediaFile, 'path'>>(
  from: string,
  to: string,
  files: readonly File[],
  { skipMissing = false } = {},
): Promise<File[]> {
  const made = new Set<string>();
  const placed: File[] = [];
  for (const file of files) {
    const { path } = file;
    const source = mediaFileLocation(from, path);
    const target = mediaFileLocation(to, path);
    if (!source || !target) throw new Error(`${path} is not a media path`);
    const folder = join(target, '..');
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true });
      made.add(folder);
    }
    try {
      await link(source, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && skipMissing) continue;
      if (code === 'ENOENT' || code === 'EEXIST') throw error;
      // Another device, or a file system without hard links (FAT, some network shares).
      await copyFile(source, target);
    }
    placed.push(file);
  }
  return placed;
}

/** The first of `files` missing in `root` or of another size, described in a few words, or null. */
export async function findMissingMedia(root: string, files: readonly MediaFile[]): Promise<string | null> {
  for (const file of files) {
    const location = mediaFileLocation(root, file.path);
    if (!location) return `${file.path} is not a media path`;
    try {
      const { size } = await stat(location);
      if (size !== file.size) return `media/${file.path} has ${size} bytes instead of ${file.size}`;
    } catch {
      return `media/${file.path} is missing`;
    }
  }
  return null;
}

/** The folder beside a media folder where a restore places the backup's files first. */
function stagingFolder(root: string): string {
  return `${root}.restoring`;
}

/**
 * First half of replacing a media folder: places `files` of `from` in a new folder beside `root`,
 * so the backup may go (be pruned) before the swap, and a refused restore only removes this folder.
 */
export async function stageMediaFolder(root: string, from: string, files: readonly MediaFile[]): Promise<void> {
  const staged = stagingFolder(root);
  await rm(staged, { recursive: true, force: true });
  await mkdir(staged, { recursive: true });
  await placeMediaFiles(from, staged, files);
}

/** Drops a staged media folder (a restore that stopped before the swap). */
export async function discardStagedMedia(root: string): Promise<void> {
  await rm(stagingFolder(root), { recursive: true, force: true });
}

/** Second half: the staged folder takes the media folder's place, so it is never half restored. */
export async function swapInStagedMedia(root: string): Promise<void> {
  const replaced = `${root}.replaced`;
  await rm(replaced, { recursive: true, force: true });
  try {
    await rename(root, replaced);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await rename(stagingFolder(root), root);
  await rm(replaced, { recursive: true, force: true });
}

/** Makes `root` hold exactly `files` of `from` (stage, then swap). */
export async function replaceMediaFolder(root: string, from: string, files: readonly MediaFile[]): Promise<void> {
  await stageMediaFolder(root, from, files);
  await swapInStagedMedia(root);
}
