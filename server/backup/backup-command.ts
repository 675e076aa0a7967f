import { parseArgs } from 'node:util';
import { progressLine } from '../cli/progress-line.js';
import { defaultBackupDir } from '../config/app-paths.js';
import { chooseDatabase } from '../config/database-choice.js';
import { type DatabaseSite, databaseSite, redactDatabaseUrls } from '../db/database.js';
import { DatabaseUnavailableError } from '../db/database-errors.js';
import { BackupError } from './backup-service.js';
import { SiteCopyError } from './site-copy-service.js';

/** How to call `quire backup` and `quire restore`. */
export const BACKUP_USAGE =
  'quire backup [--db FILE | --database postgres://... [--backup-dir DIR]] | quire restore BACKUP [--db FILE | --database postgres://... [--force] [--backup-dir DIR]]';

/**
 * `quire backup` and `quire restore BACKUP`, on a SQLite file (`--db`, `QUIRE_DB`) or a PostgreSQL
 * database (`--database`, `QUIRE_DATABASE_URL`). One line on success or failure; returns the exit
 * code (0 done, 1 refused or failed, 2 usage). Messages never hold a URL's credentials.
 */
export async function backupCommand(
  command: 'backup' | 'restore',
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  let site: DatabaseSite;
  try {
    parsed = parse(args);
    if (command === 'restore' && parsed.positionals.length !== 1)
      throw new Error('restore needs one BACKUP (a folder in backups/)');
    if (command === 'backup' && parsed.positionals.length > 0)
      throw new Error('backup takes no FILE; use --db or --database');
    site = await databaseSite(chooseDatabase(parsed.values, env));
    if (site.backupsBesideDatabase && parsed.values['backup-dir'] !== undefined)
      throw new Error('--backup-dir is for --database; a SQLite file keeps its backups in backups/ beside it');
    if (site.backupsBesideDatabase && parsed.values.force)
      throw new Error('--force is for --database; a SQLite restore keeps the replaced database in backups/');
    if (command === 'backup' && parsed.values.force) throw new Error('backup takes no --force');
  } catch (error) {
    console.error(`quire: ${redactDatabaseUrls((error as Error).message)}. Usage: ${BACKUP_USAGE}`);
    return 2;
  }
  const progress = progressLine(process.stderr);
  try {
    const dir = parsed.values['backup-dir'] ?? defaultBackupDir(process.platform, env);
    const options = { dir, force: parsed.values.force, progress };
    console.log(command === 'backup' ? await site.backup(options) : await site.restore(parsed.positionals[0], options));
    return 0;
  } catch (error) {
    const known =
      error instanceof BackupError || error instanceof SiteCopyError || error instanceof DatabaseUnavailableError;
    const message = known ? (error as Error).message : `${command} failed: ${(error as Error).message}`;
    console.error(`quire: ${redactDatabaseUrls(message).split('\n')[0]}`);
    return 1;
  }
}

/** The options `quire backup` and `quire restore` take (`--force` is restore's). */
export const BACKUP_OPTIONS = {
  db: { type: 'string' },
  database: { type: 'string' },
  'backup-dir': { type: 'string' },
  force: { type: 'boolean' },
} as const;

function parse(args: string[]) {
  return parseArgs({ args, strict: true, allowPositionals: true, options: BACKUP_OPTIONS });
}
