import { constants, createWriteStream, type Dirent } from 'node:fs';
import {
  type FileHandle,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseRelativeMediaPath } from '../../common/media-rules.js';
import { cleanArrivingSvg } from './stored-svg-check.js';

/**
 * The stored files of a media folder as a set, for backups, restores and pruning. Only generated
 * names count (`YYYY/MM/<uuidv7>.<ext>`): the temporary `.incoming` folder, dotfiles, symlinks and
 * anything else someone put there are not media and are never copied, restored or deleted.
 */

/** Where files are set aside in a media folder (`MediaStore.setAside`): a dot name, never a media path. */
export const SET_ASIDE = '.set-aside';

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

/** Why a stored file is refused: a symlink on its way, or not a regular file; one line, naming it. */
export class UnsafeMediaFile extends Error {}

/** Opens for reading without following a symlink at the file itself, nor waiting on a FIFO. */
export const READ_NO_FOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A stored file opened for reading, with what its open descriptor says of it. */
export interface OpenedMediaFile {
  handle: FileHandle;
  size: number;
  dev: number;
  ino: number;
}

/** How far a media folder's own path is trusted. */
export interface MediaFolderTrust {
  /**
   * The folder's own entry must be a real folder too, not a symlink: for a folder from elsewhere
   * (a backup's `media/`). Without it, the folder's path is trusted as named (the live media
   * folder, which its owner may have made a link to another disk).
   */
  checkRoot?: boolean;
}

/**
 * Opens the stored file `path` of `root` for reading, and only a regular file reached through real
 * folders: a symlink at the file, at its `YYYY/` or `MM/` folder (or, with `checkRoot`, at `root`),
 * or anything but a regular file (a FIFO, a device, a folder) is an UnsafeMediaFile. The checks
 * that matter are made on the open descriptor (fstat, and where the system tells it, the path the
 * descriptor was opened at), and callers read or link from that descriptor, so replacing an entry
 * after it was checked changes nothing. A missing file is ENOENT, as from `open`.
 */
export async function openMediaFile(
  root: string,
  path: string,
  { checkRoot = false }: MediaFolderTrust = {},
): Promise<OpenedMediaFile> {
  const segments = parseRelativeMediaPath(path);
  const label = `${basename(root)}/`;
  if (!segments) throw new UnsafeMediaFile(`${label}${path} is not a media path`);
  const base = checkRoot ? join(await realpath(dirname(root)), basename(root)) : await realpath(root);
  const folders = [segments[0], `${segments[0]}/${segments[1]}`];
  for (const folder of checkRoot ? ['', ...folders] : folders) {
    const info = await lstat(join(base, folder));
    if (info.isSymbolicLink())
      throw new UnsafeMediaFile(`${label}${folder} is a symbolic link, which Quire never stores`);
    if (!info.isDirectory()) throw new UnsafeMediaFile(`${label}${folder} is not a folder`);
  }
  const location = join(base, ...segments);
  let handle: FileHandle;
  try {
    handle = await open(location, READ_NO_FOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    throw new UnsafeMediaFile(`${label}${path} is a symbolic link, which Quire never stores`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UnsafeMediaFile(`${label}${path} is not a regular file`);
    if (!(await openedAt(handle, location, info))) {
      throw new UnsafeMediaFile(`${label}${path} changed while it was read (a folder on its way was replaced)`);
    }
    return { handle, size: info.size, dev: info.dev, ino: info.ino };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Whether an open descriptor is the file at `location` (a real path): a folder on the way swapped
 * for a symlink between the checks and the open would have opened a file elsewhere. Linux names
 * the descriptor's own path; elsewhere the path must still name the same file.
 */
async function openedAt(handle: FileHandle, location: string, info: { dev: number; ino: number }): Promise<boolean> {
  try {
    return (await readlink(`/proc/self/fd/${handle.fd}`)) === location;
  } catch {
    const named = await lstat(location).catch(() => null);
    return named !== null && named.dev === info.dev && named.ino === info.ino;
  }
}

/** The bytes of a stored file, read through `openMediaFile`'s checks. */
export async function readMediaFile(root: string, path: string, trust: MediaFolderTrust = {}): Promise<Buffer> {
  const { handle } = await openMediaFile(root, path, trust);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Puts `files` of `from` into `to`: a hard link where the file system allows it (a stored file is
 * never changed in place, so a link is as good as a copy, and a daily backup of unchanged media
 * costs neither space nor time), else a copy. Each file is opened through `openMediaFile`'s
 * checks, and what is placed is that opened file: a link is kept only when it is that very file,
 * and a copy is read from its descriptor. A listed size must match. With `skipMissing`, a file
 * deleted since it was listed (pruned meanwhile) is left out; returns the files placed.
 */
export async function placeMediaFiles<File extends Pick<MediaFile, 'path'> & Partial<Pick<MediaFile, 'size'>>>(
  from: string,
  to: string,
  files: readonly File[],
  { skipMissing = false, checkRoot = false }: { skipMissing?: boolean } & MediaFolderTrust = {},
): Promise<File[]> {
  const made = new Set<string>();
  const placed: File[] = [];
  for (const file of files) {
    const { path } = file;
    const source = mediaFileLocation(from, path);
    const target = mediaFileLocation(to, path);
    if (!source || !target) throw new Error(`${path} is not a media path`);
    let opened: OpenedMediaFile;
    try {
      opened = await openMediaFile(from, path, { checkRoot });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && skipMissing) continue;
      throw error;
    }
    try {
      if (file.size !== undefined && opened.size !== file.size) {
        throw new UnsafeMediaFile(`${basename(from)}/${path} has ${opened.size} bytes instead of ${file.size}`);
      }
      const folder = join(target, '..');
      if (!made.has(folder)) {
        await mkdir(folder, { recursive: true });
        made.add(folder);
      }
      await linkOrCopy(opened, source, target);
    } finally {
      await opened.handle.close();
    }
    placed.push(file);
  }
  return placed;
}

/** Places an opened file at `target`: a hard link when it is that very file, else a copy of the descriptor. */
async function linkOrCopy(opened: OpenedMediaFile, source: string, target: string): Promise<void> {
  let linked = false;
  try {
    await link(source, target);
    linked = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
    // Another device, a file system without hard links (FAT, some network shares), or gone meanwhile.
  }
  if (linked) {
    const placed = await lstat(target);
    if (placed.dev === opened.dev && placed.ino === opened.ino) return;
    // The path named another entry by the time it was linked: only the opened file is placed.
    await rm(target);
  }
  await pipeline(
    opened.handle.createReadStream({ start: 0, autoClose: false }),
    createWriteStream(target, { flags: 'wx' }),
  );
}

/**
 * The first of `files` missing in `root` or of another size, described in a few words, or null.
 * Each is opened through `openMediaFile`'s checks, so a symlink or a file that is not a regular one
 * is an UnsafeMediaFile, not a file that is there.
 */
export async function findMissingMedia(
  root: string,
  files: readonly MediaFile[],
  trust: MediaFolderTrust = {},
): Promise<string | null> {
  for (const file of files) {
    let opened: OpenedMediaFile;
    try {
      opened = await openMediaFile(root, file.path, trust);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return `media/${file.path} is missing`;
      throw error;
    }
    await opened.handle.close();
    if (opened.size !== file.size) return `media/${file.path} has ${opened.size} bytes instead of ${file.size}`;
  }
  return null;
}

/** The folder beside a media folder where a restore places the backup's files first. */
function stagingFolder(root: string): string {
  return `${root}.restoring`;
}

/**
 * First half of replacing a media folder: places `files` of `from` (a backup's `media/`, whose own
 * entry is checked too) in a new folder beside `root`, so the backup may go (be pruned) before the
 * swap, and a refused restore only removes this folder. Returns the media paths of the SVGs
 * cleaning refused (not placed), whose assets the restored database must not keep.
 */
export async function stageMediaFolder(
  root: string,
  from: string,
  files: readonly MediaFile[],
  log: (line: string) => void = (line) => console.warn(line),
): Promise<string[]> {
  const staged = stagingFolder(root);
  await rm(staged, { recursive: true, force: true });
  await mkdir(staged, { recursive: true });
  await placeMediaFiles(from, staged, files, { checkRoot: true });
  const refused: string[] = [];
  for (const file of files) {
    if (file.path.endsWith('.svg') && !(await cleanStagedSvg(staged, file.path, root, log))) refused.push(file.path);
  }
  return refused;
}

/**
 * A backup's SVG, cleaned as an upload is (a backup is a folder anyone may have changed, and the
 * site serves and exports its files as uploads): one that cleaning changes is replaced by the
 * cleaned text, and one it refuses is taken out; the file as it was goes to `.set-aside/` in the
 * media folder (placed as a link to the backup's file, it stays one there) and a line says so.
 * The library corrects the asset's size and hash when the server starts. False when refused.
 */
async function cleanStagedSvg(
  staged: string,
  path: string,
  root: string,
  log: (line: string) => void,
): Promise<boolean> {
  const location = mediaFileLocation(staged, path) as string;
  const kept = await cleanArrivingSvg({
    path,
    bytes: await readFile(location),
    how: 'of the backup',
    log,
    async setAside(replacement) {
      await rename(location, await setAsideLocation(staged, path));
      if (replacement) await writeFile(location, replacement, { flag: 'wx' });
      return `${basename(root)}/${SET_ASIDE}/${path}`;
    },
  });
  return kept !== null;
}

/**
 * Where a file of the media folder `root` at media path `path` is set aside: `.set-aside/<path>`,
 * its folder made. A file set aside there before (set aside, then arriving again) stays: this one
 * then takes a suffix.
 */
export async function setAsideLocation(root: string, path: string): Promise<string> {
  const segments = parseRelativeMediaPath(path);
  if (!segments) throw new Error(`media/${path} is not a stored file`);
  const kept = join(root, SET_ASIDE, ...segments);
  await mkdir(dirname(kept), { recursive: true });
  return (await stat(kept).catch(() => null)) ? `${kept}.${Date.now()}` : kept;
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
