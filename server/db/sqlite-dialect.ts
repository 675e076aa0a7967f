import Database from 'better-sqlite3';
import { type Expression, type Kysely, type SqlBool, SqliteDialect, sql } from 'kysely';

/**
 * Everything SQLite-specific lives here: opening the file with its pragmas, statement caching,
 * the Unicode case-folding search function and the online backup. A PostgreSQL dialect would
 * provide the same exports; handlers and services never see which one is in use.
 */

/** An open SQLite connection: the raw handle (for pragmas, backup) and the Kysely dialect over it. */
export interface SqliteConnection {
  raw: Database.Database;
  dialect: SqliteDialect;
}

/** Folds text for case-insensitive, Unicode-aware matching (`ÜBER` matches `über`). */
export function foldForSearch(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/** How to open SQLite. */
export interface SqliteOptions {
  /**
   * Path of a better-sqlite3 addon built for another runtime (Electron's ABI), so one checkout can
   * serve both `node` and Electron without rebuilding back and forth.
   */
  nativeBinding?: string;
}

/** How many prepared statements to keep; the SQL shapes of a running server are few. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Opens (creating if needed) a database file with the pragmas Quire relies on:
 * WAL so readers never block the writer, `synchronous=FULL` so a committed write survives a power
 * cut (better-sqlite3 builds default WAL to NORMAL, so it is set explicitly), foreign keys on, and a
 * busy timeout so a second process (backup, import) waits instead of failing.
 */
export function openSqlite(file: string, options: SqliteOptions = {}): SqliteConnection {
  const raw = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.function('quire_fold', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? foldForSearch(value) : value,
  );
  return { raw, dialect: new SqliteDialect({ database: withStatementCache(raw) }) };
}

/**
 * Kysely prepares each query anew; re-preparing the same SQL costs more than running it. This wraps
 * the connection so identical SQL reuses one prepared statement.
 */
function withStatementCache(raw: Database.Database): Database.Database {
  const cache = new Map<string, Database.Statement>();
  const prepare = (source: string): Database.Statement => {
    let statement = cache.get(source);
    if (!statement) {
      statement = raw.prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  };
  return new Proxy(raw, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      if (property === 'close') {
        return () => {
          cache.clear();
          return target.close();
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A case-insensitive, Unicode-aware substring match of `keyword` in any of `columns`. */
export function containsIgnoringCase(columns: readonly string[], keyword: string): Expression<SqlBool> {
  const needle = foldForSearch(keyword);
  const tests = columns.map((column) => sql<SqlBool>`instr(quire_fold(${sql.ref(column)}), ${needle}) > 0`);
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

/** Whether an error is SQLite's unique-constraint failure (a conflict the client can fix). */
export function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  );
}

/** Names of the tables in the database (to spot content tables that already exist). */
export async function listTables(db: Kysely<unknown>): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
  return result.rows.map((row) => row.name);
}
