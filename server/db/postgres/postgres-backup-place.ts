import { join, resolve } from 'node:path';
import type { BackupPlace } from '../../backup/backup-service.js';
import { userDataDir } from '../../config/app-paths.js';
import type { PostgresTarget } from './postgres-url.js';

/** Where PostgreSQL backups go unless `--backup-dir` says: `backups/` in the app-data folder. */
export function defaultPostgresBackupDir(): string {
  return join(userDataDir(), 'backups');
}

/**
 * The backups of a PostgreSQL database: named `<database>-postgres-<time>`, so they never match a
 * SQLite file's backups (`<file>-<time>`) in a shared folder.
 */
export function postgresBackupPlace(target: PostgresTarget, dir: string = defaultPostgresBackupDir()): BackupPlace {
  return { dir: resolve(dir), stem: `${target.database.replace(/[^A-Za-z0-9_.-]/g, '_')}-postgres` };
}
