import { resolve } from 'node:path';
import type { BackupPlace } from '../../backup/backup-service.js';
import type { PostgresTarget } from './postgres-url.js';

/**
 * The backups of a PostgreSQL database: named `<database>-postgres-<time>`, so they never match a
 * SQLite file's backups (`<file>-<time>`) in a shared folder. `dir` is `--backup-dir`, else the
 * app-data folder's (`defaultBackupDir`).
 */
export function postgresBackupPlace(target: PostgresTarget, dir: string): BackupPlace {
  return { dir: resolve(dir), stem: `${target.database.replace(/[^A-Za-z0-9_.-]/g, '_')}-postgres` };
}
