import { resolve } from 'node:path';
import { type PostgresTarget, parsePostgresUrl } from '../db/database.js';
import { defaultDatabaseFile } from './app-paths.js';

/**
 * Which database a command works on: `--db FILE` (SQLite) or `--database URL` (PostgreSQL), each
 * also from its variable (`QUIRE_DB`, `QUIRE_DATABASE_URL`). `quire serve` and every command that
 * opens a site read their flags here, so each picks the same database the same way.
 */

/** The chosen database: the SQLite file (unused when `postgres` is set), or the PostgreSQL one. */
export interface DatabaseChoice {
  dbFile: string;
  postgres: PostgresTarget | null;
}

/** The flags a command was given for its database. */
export interface DatabaseFlags {
  db?: string;
  database?: string;
}

/** A choice that cannot be made; its message is one line without credentials. */
export class DatabaseChoiceError extends Error {}

/**
 * A flag overrides the variables, whichever engine each names. Naming both engines at one level is
 * a mistake, not a choice to guess at. An exported but empty variable means "not set". Without
 * either, the SQLite file in the user-data folder (`QUIRE_USER_DATA_DIR` honoured, see app-paths.ts).
 */
export function chooseDatabase(flags: DatabaseFlags, env: NodeJS.ProcessEnv): DatabaseChoice {
  const fromEnv = (name: string): string | undefined => env[name] || undefined;
  if (flags.db !== undefined && flags.database !== undefined) {
    throw new DatabaseChoiceError('give either --db FILE (SQLite) or --database URL (PostgreSQL), not both');
  }
  let url = flags.database;
  let file = flags.db;
  if (url === undefined && file === undefined) {
    url = fromEnv('QUIRE_DATABASE_URL');
    file = fromEnv('QUIRE_DB');
    if (url !== undefined && file !== undefined) {
      throw new DatabaseChoiceError(
        'QUIRE_DB and QUIRE_DATABASE_URL are both set: unset one, or pass --db or --database',
      );
    }
  }
  const dbFile = resolve(file ?? defaultDatabaseFile(process.platform, env));
  if (url === undefined) return { dbFile, postgres: null };
  try {
    return { dbFile, postgres: parsePostgresUrl(url) };
  } catch (error) {
    // The URL parser's messages never repeat the URL, so they are safe to print.
    throw new DatabaseChoiceError(`--database: ${(error as Error).message}`);
  }
}
