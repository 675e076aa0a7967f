import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MEDIA_URL_PREFIX } from '../../../common/media-rules.js';
import { type BackupSource, readBackupSource, verifyBackupMedia } from '../../backup/backup-folder.js';
import { BackupError } from '../../backup/backup-service.js';
import { discardStagedMedia, stageMediaFolder, swapInStagedMedia, UnsafeMediaFile } from '../../media/media-files.js';
import { mediaDirFor } from '../../media/media-store.js';
import { ASSETS_TABLE } from '../repositories/asset-repository.js';
import { backupDatabase, requireQuireDatabase, type SqliteBackupOptions } from './sqlite-backup.js';
import { backupSqlite, inspectSqliteFile, lockSqliteExclusively, openSqliteFile } from './sqlite-dialect.js';
import { admitRestoredCopy, RestoreRefusal } from './sqlite-restore-validator.js';
import { snapshotFolder } from './sqlite-search-snapshot.js';

/** What a restore did. */
export interface RestoreResult {
  /** The backup taken of the database (and media) that were replaced; null when there was none. */
  previous: string | null;
  /** How many media files were restored; null when the backup holds the database only. */
  mediaFiles: number | null;
}

/**
 * `quire restore BACKUP`: replaces the database, and the media folder beside it, with a backup.
 * BACKUP is a backup folder (or a database file alone, as older versions made them, which leaves
 * the media as they are). Everything is checked before anything changes: the database copy must
 * pass the integrity check and be one Quire writes (see sqlite-restore-validator.ts; older schemas are
 * migrated on the copy), and every media file the manifest lists must be there as a regular file
 * (a symlink, or anything else, is refused; what is placed is the file checked). The database must
 * not be open anywhere (a running server, the desktop app), which is detected through SQLite's file
 * lock; the current database and media are backed up first (label `before-restore`), so a restore
 * can itself be undone.
 */
export async function restoreDatabase(
  backup: string,
  dbFile: string,
  options: SqliteBackupOptions = {},
): Promise<RestoreResult> {
  const to = resolve(dbFile);
  let source: BackupSource;
  try {
    source = readBackupSource(resolve(backup));
  } catch (error) {
    throw new BackupError((error as Error).message);
  }
  const from = resolve(source.database);
  if (from === to) throw new BackupError(`${backup} is the database itself; name a backup to restore from`);
  requireQuireDatabase(from, 'backup', options);
  const refuse = (reason: string) => new BackupError(`${backup} cannot be restored: ${reason}; nothing was changed`);

  // Copy through SQLite (a consistent copy even of a file with a -wal beside it), then check and
  // migrate the copy, never the backup itself.
  const incoming = `${to}.restoring`;
  mkdirSync(dirname(to), { recursive: true });
  removeDatabaseFiles(incoming);
  try {
    const reader = openSqliteFile(from, { ...options, readonly: true });
    try {
      await backupSqlite(reader, incoming, options);
    } finally {
      reader.close();
    }
    const report = inspectSqliteFile(incoming, options);
    if (report.problem) {
      throw new BackupError(`The copy of ${backup} failed verification (${report.problem}); nothing was changed`);
    }
    await admitRestoredCopy(incoming, options);
    const missing = await verifyBackupMedia(source);
    if (missing) throw refuse(`the backup is incomplete (${missing})`);
    // Placed now: the before-restore backup below may prune the backup being restored from.
    if (source.media) {
      const refused = await stageMediaFolder(mediaDirFor(to), source.media.root, source.media.files);
      dropAssetsOf(incoming, refused, options);
    }
  } catch (error) {
    await giveUp(incoming, to);
    throw error instanceof RestoreRefusal || error instanceof UnsafeMediaFile ? refuse(error.message) : error;
  }

  let previous: string | null = null;
  if (existsSync(to)) {
    const lock = lockSqliteExclusively(to, options);
    if (!lock) {
      await giveUp(incoming, to);
      throw new BackupError(
        `${to} is open in a running Quire server or desktop app (or another program); stop it, then restore`,
      );
    }
    try {
      previous = await backupDatabase(lock, to, { ...options, label: 'before-restore' });
    } catch (error) {
      await giveUp(incoming, to);
      throw error;
    } finally {
      lock.close();
    }
  }

  // Swap in with renames, after removing WAL files that belonged to the replaced database (and its
  // saved search indexes: they would be refused anyway, as their markers are not in the backup).
  rmSync(`${to}-wal`, { force: true });
  rmSync(`${to}-shm`, { force: true });
  rmSync(snapshotFolder(to), { recursive: true, force: true });
  renameSync(incoming, to);
  if (source.media) await swapInStagedMedia(mediaDirFor(to));
  return { previous, mediaFiles: source.media ? source.media.files.length : null };
}

/**
 * An SVG cleaning refuses arrives without file and without asset, as in a site copy: its asset row
 * goes from the restored copy; rows that name its path keep it (it then names no file).
 */
function dropAssetsOf(file: string, paths: readonly string[], options: SqliteBackupOptions): void {
  if (paths.length === 0) return;
  const db = openSqliteFile(file, options);
  try {
    const drop = db.prepare(`delete from ${ASSETS_TABLE} where path = ?`);
    db.transaction(() => {
      for (const path of paths) drop.run(`${MEDIA_URL_PREFIX}${path}`);
    })();
  } finally {
    db.close();
  }
}

/** Removes what a restore that stops before the swap has made. */
async function giveUp(incoming: string, to: string): Promise<void> {
  removeDatabaseFiles(incoming);
  await discardStagedMedia(mediaDirFor(to));
}

function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}
