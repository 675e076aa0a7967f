import { extname, resolve } from 'node:path';

/** File extensions offered by the Open and New Database dialogs. */
export const DATABASE_EXTENSIONS = ['sqlite', 'sqlite3', 'db'];

/** The extension given to a new database named without one. */
export const NEW_DATABASE_EXTENSION = '.sqlite';

/** Where the database to open came from. */
export type DatabaseSource = 'argument' | 'environment' | 'last-used' | 'default';

/** The database to open at start, and a one-line notice when the remembered one was missing. */
export interface StartupDatabase {
  file: string;
  source: DatabaseSource;
  notice: string | null;
}

/** Inputs of the startup database choice, most specific first. */
export interface DatabaseInputs {
  /** `--db` on the command line (relative to `cwd`). */
  argDb?: string;
  /** `QUIRE_DB` (relative to `cwd`). */
  envDb?: string;
  /** The database open when the app last ran. */
  lastDatabase: string | null;
  /** `content.sqlite` in the user-data folder: the same file `npm run serve` uses by default. */
  defaultFile: string;
  cwd: string;
  exists(file: string): boolean;
}

/**
 * Picks the database to open: `--db`, then `QUIRE_DB`, then the last one used if it still exists
 * (a removed USB drive must not create an empty database in its place), then the default file.
 */
export function resolveStartupDatabase(inputs: DatabaseInputs): StartupDatabase {
  if (inputs.argDb?.trim()) return { file: resolve(inputs.cwd, inputs.argDb), source: 'argument', notice: null };
  if (inputs.envDb?.trim()) return { file: resolve(inputs.cwd, inputs.envDb), source: 'environment', notice: null };
  if (inputs.lastDatabase) {
    if (inputs.exists(inputs.lastDatabase)) return { file: inputs.lastDatabase, source: 'last-used', notice: null };
    return {
      file: inputs.defaultFile,
      source: 'default',
      notice: `The last database, ${inputs.lastDatabase}, was not found; Quire opened ${inputs.defaultFile} instead.`,
    };
  }
  return { file: inputs.defaultFile, source: 'default', notice: null };
}

/** A new database's file name: given `.sqlite` when the user typed a name without an extension. */
export function withDatabaseExtension(file: string): string {
  return extname(file) === '' ? `${file}${NEW_DATABASE_EXTENSION}` : file;
}
