import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BACKUP_DATABASE, BACKUP_MEDIA, readBackupSource, verifyBackupMedia } from '../../backup/backup-folder.js';
import { BackupError, type BackupPlace, writeBackupFolder } from '../../backup/backup-service.js';
import { targetContents } from '../../backup/site-copy.js';
import { copySite, type SiteCopySummary } from '../../backup/site-copy-service.js';
import { listMediaFiles, UnsafeMediaFile } from '../../media/media-files.js';
import { requireQuireDatabase } from '../sqlite/sqlite-backup.js';
import { openDatabase } from '../sqlite/sqlite-database.js';
import { backupSqlite, inspectSqliteFile, openSqliteFile } from '../sqlite/sqlite-dialect.js';
import { admitRestoredCopy, RestoreRefusal } from '../sqlite/sqlite-restore-validator.js';
import type { PostgresQuireDb } from './postgres-database.js';

export { postgresBackupPlace } from './postgres-backup-place.js';

/**
 * Backups of a PostgreSQL site, in the very format of SQLite's (backup-folder.ts): a folder with
 * `database.sqlite` (the whole site, written by the site copy), `media/` (the uploads of
 * `quire_media`) and `manifest.json`. So one backup restores into either engine: `quire restore
 * --db FILE` as any SQLite backup, `quire restore --database URL` through the site copy again.
 */

/** Options of a PostgreSQL backup. */
export interface PostgresBackupOptions {
  keep?: number;
  now?: Date;
  label?: string;
}

/**
 * Backs up a PostgreSQL site into a new backup folder at `place`: reads it in one read-only,
 * repeatable-read transaction (a consistent snapshot while servers keep writing), copies it into a
 * fresh SQLite database in the folder, checks that copy as a restore would (sqlite-restore-validator.ts)
 * and every upload against the manifest. A failed backup leaves nothing and prunes nothing.
 */
export async function backupPostgres(
  database: PostgresQuireDb,
  place: BackupPlace,
  options: PostgresBackupOptions = {},
): Promise<string> {
  return writeBackupFolder(place, options, async (partial) => {
    const file = join(partial, BACKUP_DATABASE);
    await mkdir(join(partial, BACKUP_MEDIA));
    const copy = await openDatabase(file);
    try {
      await database.db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        // The site's files as they are: restoring the backup cleans its SVGs.
        .execute((snapshot) => copySite({ ...database, db: snapshot }, copy, { cleanSvgs: false }));
      // One self-contained file, nothing in a -wal beside it.
      copy.raw.pragma('journal_mode = DELETE');
    } finally {
      await copy.close();
    }
    const report = inspectSqliteFile(file);
    if (report.problem) throw new BackupError(`The backup ${partial} failed verification: ${report.problem}`);
    try {
      await admitRestoredCopy(file);
    } catch (error) {
      if (!(error instanceof RestoreRefusal)) throw error;
      throw new BackupError(`The backup ${partial} failed verification: ${error.message}`);
    }
    return listMediaFiles(join(partial, BACKUP_MEDIA));
  });
}

/** What a restore into PostgreSQL did. */
export interface PostgresRestoreResult extends SiteCopySummary {
  /** The backup taken of the content that was replaced (with `force`), or null when it was empty. */
  previous: string | null;
}

/** Options of a restore into PostgreSQL. */
export interface PostgresRestoreOptions {
  /** Replace a database that holds content (after backing it up at `place`). */
  force?: boolean;
  /** Where the backup of replaced content goes. */
  place: BackupPlace;
  progress?: (line: string) => void;
}

/**
 * `quire restore BACKUP --database URL`: loads a backup folder (taken on either engine) into a
 * PostgreSQL database. Everything is checked before anything changes: the backup's database is
 * copied aside, checked and migrated as a SQLite restore checks it, and every upload the manifest
 * lists must be there as a regular file (never a symlink: the site copy reads the backup's uploads
 * through the same checks). A database with content is refused unless `force`, and then backed up
 * first (label `before-restore`). The load is the site copy's: one transaction, counts checked.
 */
export async function restoreIntoPostgres(
  backup: string,
  database: PostgresQuireDb,
  options: PostgresRestoreOptions,
): Promise<PostgresRestoreResult> {
  const refuse = (reason: string) => new BackupError(`${backup} cannot be restored: ${reason}; nothing was changed`);
  // Problems of the backup's database or files, worded to follow "cannot be restored: ".
  const refusal = (error: unknown) =>
    error instanceof RestoreRefusal || error instanceof UnsafeMediaFile ? refuse(error.message) : error;
  let source: ReturnType<typeof readBackupSource>;
  try {
    source = readBackupSource(resolve(backup));
  } catch (error) {
    throw new BackupError((error as Error).message);
  }
  const media = source.media;
  if (!media) {
    throw refuse(
      'it is a database file without its media (an older backup); restore it with --db FILE, then quire copy',
    );
  }
  requireQuireDatabase(source.database, 'backup', {});
  let missing: string | null;
  try {
    missing = await verifyBackupMedia(source);
  } catch (error) {
    throw refusal(error);
  }
  if (missing) throw refuse(`the backup is incomplete (${missing})`);
  const present = await targetContents(database);
  if (present && !options.force) {
    throw new BackupError(`the database is not empty (${present}); pass --force to replace its content`);
  }

  const work = await mkdtemp(join(tmpdir(), 'quire-restore-'));
  try {
    // Checked and migrated on a copy, never the backup itself (as a SQLite restore does).
    const copyFile = join(work, BACKUP_DATABASE);
    const reader = openSqliteFile(source.database, { readonly: true });
    try {
      await backupSqlite(reader, copyFile);
    } finally {
      reader.close();
    }
    const report = inspectSqliteFile(copyFile);
    if (report.problem) throw refuse(`its database failed verification (${report.problem})`);
    try {
      await admitRestoredCopy(copyFile);
    } catch (error) {
      throw refusal(error);
    }
    // Not pruned: the backup being restored may be the oldest one there.
    const previous = present
      ? await backupPostgres(database, options.place, { label: 'before-restore', keep: Number.MAX_SAFE_INTEGER })
      : null;
    // Its uploads are the backup's, read checking the backup's folder itself too.
    const restored = await openDatabase(copyFile, { mediaDir: media.root });
    try {
      const summary = await copySite(restored, database, {
        force: true,
        progress: options.progress,
      }).catch((error) => {
        throw refusal(error);
      });
      return { ...summary, previous };
    } finally {
      await restored.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
