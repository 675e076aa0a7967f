import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordRestore } from '../audit/restore-audit.js';
import { progressLine } from '../cli/progress-line.js';
import { chooseDatabase, type DatabaseChoice } from '../config/database-choice.js';
import { openDatabase, openPostgresDatabase } from '../db/database.js';
import { backupPostgres, postgresBackupPlace, restoreIntoPostgres } from '../db/postgres/postgres-backup.js';
import { PostgresConnectionError } from '../db/postgres/postgres-errors.js';
import { redactPostgresUrl } from '../db/postgres/postgres-url.js';
import { BackupError, backupFile } from './backup-service.js';
import { restoreDatabase } from './restore-service.js';
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
  let choice: DatabaseChoice;
  try {
    parsed = parse(args);
    if (command === 'restore' && parsed.positionals.length !== 1)
      throw new Error('restore needs one BACKUP (a folder in backups/)');
    if (command === 'backup' && parsed.positionals.length > 0)
      throw new Error('backup takes no FILE; use --db or --database');
    choice = chooseDatabase(parsed.values, env);
    if (!choice.postgres && parsed.values['backup-dir'] !== undefined)
      throw new Error('--backup-dir is for --database; a SQLite file keeps its backups in backups/ beside it');
    if (!choice.postgres && parsed.values.force)
      throw new Error('--force is for --database; a SQLite restore keeps the replaced database in backups/');
    if (command === 'backup' && parsed.values.force) throw new Error('backup takes no --force');
  } catch (error) {
    console.error(`quire: ${redactPostgresUrl((error as Error).message)}. Usage: ${BACKUP_USAGE}`);
    return 2;
  }
  const progress = progressLine(process.stderr);
  try {
    if (choice.postgres) {
      const place = postgresBackupPlace(choice.postgres, parsed.values['backup-dir']);
      const database = await openPostgresDatabase(choice.postgres);
      try {
        if (command === 'backup') {
          progress.update(`Backing up ${database.description} and its uploads...`);
          const written = await backupPostgres(database, place).finally(() => progress.done());
          console.log(`Backed up ${database.description} and its uploads to ${written}`);
          return 0;
        }
        const backup = parsed.positionals[0];
        progress.update(`Restoring ${resolve(backup)} into ${database.description}...`);
        const done = await restoreIntoPostgres(backup, database, {
          force: parsed.values.force,
          place,
          progress: progress.update,
        }).finally(() => progress.done());
        await recordRestore(database, resolve(backup), {
          engine: 'postgres',
          types: done.types,
          rows: done.rows,
          media: done.media,
        });
        const kept = done.previous ? `; the content it replaced was kept in ${done.previous}` : '';
        console.log(
          `Restored ${done.types} content types, ${done.rows} rows and ${done.media} uploads from ${resolve(backup)} into ${database.description}; counts checked${kept}`,
        );
        return 0;
      } finally {
        await database.close();
      }
    }
    const { dbFile } = choice;
    if (command === 'backup') {
      progress.update(`Backing up ${dbFile} and its media...`);
      const written = await backupFile(dbFile).finally(() => progress.done());
      console.log(`Backed up ${dbFile} and its media to ${written}`);
    } else {
      progress.update(`Restoring ${resolve(parsed.positionals[0])} into ${dbFile}...`);
      const { previous, mediaFiles } = await restoreDatabase(parsed.positionals[0], dbFile).finally(() =>
        progress.done(),
      );
      const restored = await openDatabase(dbFile);
      await recordRestore(restored, resolve(parsed.positionals[0]), { engine: 'sqlite', media: mediaFiles }).finally(
        () => restored.close(),
      );
      const what =
        mediaFiles === null
          ? `${dbFile} (the backup has no media; media/ was left as it was)`
          : `${dbFile} and ${mediaFiles} media files`;
      const kept = previous ? `; the previous database and media were kept in ${previous}` : '';
      console.log(`Restored ${what} from ${resolve(parsed.positionals[0])}${kept}`);
    }
    return 0;
  } catch (error) {
    const known =
      error instanceof BackupError || error instanceof SiteCopyError || error instanceof PostgresConnectionError;
    const message = known ? (error as Error).message : `${command} failed: ${(error as Error).message}`;
    console.error(`quire: ${redactPostgresUrl(message).split('\n')[0]}`);
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
