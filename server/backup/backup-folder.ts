import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { findMissingMedia, type MediaFile, mediaFileLocation } from '../media/media-files.js';

/**
 * A backup is a folder: `database.sqlite` (a verified copy of the database), `media/` (the stored
 * media files, hard-linked where possible) and `manifest.json` (what the folder must hold, read
 * back to verify it). A plain folder rather than an archive: a daily backup of unchanged media
 * then costs no space, a restore is a rename, and any file manager can open one.
 */

/** The database copy's name inside a backup folder. */
export const BACKUP_DATABASE = 'database.sqlite';
/** The media folder inside a backup folder. */
export const BACKUP_MEDIA = 'media';
/** The manifest inside a backup folder, written last. */
export const BACKUP_MANIFEST = 'manifest.json';
const FORMAT = 'quire-backup';
const VERSION = 1;

/** What a backup folder holds. */
export interface BackupManifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  /** When the backup was taken (ISO 8601). */
  created_at: string;
  database: typeof BACKUP_DATABASE;
  /** Every media file, by its path under `media/`, with its size. */
  media: { path: string; size: number }[];
}

/** Writes the manifest of a backup folder. */
export async function writeManifest(folder: string, at: Date, media: readonly MediaFile[]): Promise<void> {
  const manifest: BackupManifest = {
    format: FORMAT,
    version: VERSION,
    created_at: at.toISOString(),
    database: BACKUP_DATABASE,
    media: media.map(({ path, size }) => ({ path, size })),
  };
  await writeFile(join(folder, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`);
}

/** A backup to restore from: its database file, and its media when it is a backup folder. */
export interface BackupSource {
  database: string;
  /** The backup folder's `media/` and its files; null for a database file alone (older backups). */
  media: { root: string; files: MediaFile[] } | null;
}

/**
 * Reads what `path` names: a backup folder (or the database file inside one), or a database file
 * alone. Throws an Error with a one-line reason when a folder is not a readable backup.
 */
export function readBackupSource(path: string): BackupSource {
  let folder: string | null = null;
  if (existsSync(path) && statSync(path).isDirectory()) folder = path;
  else if (basename(path) === BACKUP_DATABASE && existsSync(join(dirname(path), BACKUP_MANIFEST)))
    folder = dirname(path);
  if (!folder) return { database: path, media: null };

  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(join(folder, BACKUP_MANIFEST), 'utf8'));
  } catch {
    throw new Error(`${folder} is not a Quire backup (it has no readable ${BACKUP_MANIFEST})`);
  }
  const record = manifest as Partial<BackupManifest>;
  if (record?.format !== FORMAT) throw new Error(`${folder} is not a Quire backup (unknown ${BACKUP_MANIFEST})`);
  if (record.version !== VERSION) {
    throw new Error(`${folder} is a backup format this version of Quire does not know (version ${record.version})`);
  }
  const files = Array.isArray(record.media) ? record.media : null;
  const wellFormed = files?.every(
    (file) =>
      typeof file?.path === 'string' &&
      mediaFileLocation('', file.path) !== null &&
      Number.isSafeInteger(file.size) &&
      file.size >= 0,
  );
  if (!files || !wellFormed) throw new Error(`${folder} has a malformed ${BACKUP_MANIFEST}`);
  // A link would restore whatever database it names (another site's, say) as this backup's.
  const database = lstatSync(join(folder, BACKUP_DATABASE), { throwIfNoEntry: false });
  if (database?.isSymbolicLink() || (database && !database.isFile())) {
    const what = database.isSymbolicLink() ? 'a symbolic link' : 'not a regular file';
    throw new Error(`${folder} cannot be restored: its ${BACKUP_DATABASE} is ${what}; nothing was changed`);
  }
  return {
    database: join(folder, BACKUP_DATABASE),
    media: { root: join(folder, BACKUP_MEDIA), files: files.map(({ path, size }) => ({ path, size, mtimeMs: 0 })) },
  };
}

/**
 * Null when the folder's `media/` holds every file of the manifest at its size; else what is
 * missing. A symlink (`media/` itself, a folder or a file in it) or anything but a regular file is
 * an UnsafeMediaFile: a backup holds only the files Quire stored, and a link would read any file.
 */
export function verifyBackupMedia(source: BackupSource): Promise<string | null> {
  return source.media
    ? findMissingMedia(source.media.root, source.media.files, { checkRoot: true })
    : Promise.resolve(null);
}
