import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKUP_DATABASE, BACKUP_MEDIA } from '../../backup/backup-folder.js';
import {
  BackupError,
  type BackupJob,
  type BackupOptions,
  sqliteBackupPlace,
  writeBackupFolder,
} from '../../backup/backup-service.js';
import { listMediaFiles, placeMediaFiles } from '../../media/media-files.js';
import { mediaDirFor } from '../../media/media-store.js';
import { REGISTRY_TABLE } from '../schema.js';
import {
  backupSqlite,
  inspectSqliteFile,
  openSqliteFile,
  type SqliteHandle,
  type SqliteOptions,
} from './sqlite-dialect.js';

/** Options of a SQLite file's backups and restores. */
export type SqliteBackupOptions = BackupOptions & SqliteOptions;

/**
 * Refuses a file that is missing, not SQLite, damaged, or has no content-type registry: a database
 * to back up, or the database of a backup (every backup's is a SQLite file, whichever engine wrote it).
 */
export function requireQuireDatabase(file: string, role: 'database' | 'backup', options: SqliteOptions): void {
  if (!existsSync(file)) throw new BackupError(`There is no ${role} file at ${file}`);
  const report = inspectSqliteFile(file, options);
  if (report.problem) throw new BackupError(`${file} is not a valid Quire database: ${report.problem}`);
  if (!report.tables.includes(REGISTRY_TABLE)) {
    throw new BackupError(`${file} is not a Quire database (it has no ${REGISTRY_TABLE} table)`);
  }
}

/**
 * Backups of a SQLite site: the database file copied through SQLite and the media folder beside
 * it, in a backup folder (backup-folder.ts) in `backups/` beside the file.
 */

/**
 * Backs up an open database and its media folder into a new backup folder: copies the database
 * through its connection and checks the copy with `PRAGMA integrity_check` (opened read-only),
 * links (or copies) every media file and checks each is there at its size, writes the manifest,
 * then gives the folder its final name and deletes the backups beyond `keep`. A backup that fails
 * a check is deleted and nothing is pruned. The database is copied first, so every media file its
 * rows name was stored before the media are.
 */
export async function backupDatabase(
  raw: SqliteHandle,
  dbFile: string,
  options: SqliteBackupOptions & { label?: string } = {},
): Promise<string> {
  return writeBackupFolder(sqliteBackupPlace(dbFile), options, async (partial) => {
    const database = join(partial, BACKUP_DATABASE);
    await backupSqlite(raw, database, options);
    const report = inspectSqliteFile(database, options);
    if (report.problem) throw new BackupError(`The backup ${partial} failed verification: ${report.problem}`);
    await mkdir(join(partial, BACKUP_MEDIA));
    const listed = await listMediaFiles(mediaDirFor(dbFile));
    return placeMediaFiles(mediaDirFor(dbFile), join(partial, BACKUP_MEDIA), listed, { skipMissing: true });
  });
}

/** The scheduled backups of a SQLite database, through the server's own connection. */
export function sqliteBackupJob(raw: SqliteHandle, dbFile: string, options: SqliteBackupOptions = {}): BackupJob {
  return {
    what: dbFile,
    place: sqliteBackupPlace(dbFile),
    take: () => backupDatabase(raw, dbFile, { ...options, now: undefined }),
  };
}

/**
 * `quire backup`: backs up a database file that may be in use by a running server (SQLite lets a
 * second connection read while the server writes). Refuses a file that is not a Quire database.
 */
export async function backupFile(dbFile: string, options: SqliteBackupOptions = {}): Promise<string> {
  requireQuireDatabase(dbFile, 'database', options);
  const raw = openSqliteFile(dbFile, options);
  try {
    return await backupDatabase(raw, dbFile, options);
  } finally {
    raw.close();
  }
}
