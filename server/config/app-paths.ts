import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The app's folder name, as Electron's `app.getPath('userData')` names it (the product name). */
export const APP_FOLDER_NAME = 'Quire';

/** File name of the database in the user-data folder. */
export const DATABASE_FILE_NAME = 'content.sqlite';

/** The variable that moves the user-data folder (a portable setup, a test's own folder). */
export const USER_DATA_DIR_ENV = 'QUIRE_USER_DATA_DIR';

/**
 * Quire's per-user app-data folder: `QUIRE_USER_DATA_DIR` when set (relative to the working
 * folder), else the OS's folder for the app, the one Electron's `app.getPath('userData')` returns.
 * The desktop app moves its folder by the same variable, so it, `npm start`, `npm run serve` and
 * every `quire` command open the same database by default.
 */
export function userDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string = homedir()): string {
  const chosen = env[USER_DATA_DIR_ENV]?.trim();
  if (chosen) return resolve(chosen);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_FOLDER_NAME);
}

/** The default database file: `content.sqlite` in the user-data folder. */
export function defaultDatabaseFile(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  home: string = homedir(),
): string {
  return join(userDataDir(platform, env, home), DATABASE_FILE_NAME);
}

/**
 * Where a PostgreSQL site's servers save their in-memory search indexes at a clean stop, and where
 * `quire import` and `quire copy` leave them (a folder per database inside; see
 * postgres-search-snapshot.ts): `QUIRE_SEARCH_INDEX_DIR` (a persistent volume, when the app-data
 * folder is not), else `search-indexes/` in the app-data folder. A SQLite site's go beside its file.
 */
export function defaultSearchIndexDir(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  home: string = homedir(),
): string {
  const chosen = env.QUIRE_SEARCH_INDEX_DIR?.trim();
  if (chosen) return resolve(chosen);
  return join(userDataDir(platform, env, home), 'search-indexes');
}

/**
 * Where backups go that are not kept beside their database (a PostgreSQL site's, unless
 * `--backup-dir` says): `backups/` in the app-data folder.
 */
export function defaultBackupDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string = homedir()): string {
  return join(userDataDir(platform, env, home), 'backups');
}
