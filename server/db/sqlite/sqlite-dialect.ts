import Database from 'better-sqlite3';
import { type Expression, type SqlBool, SqliteDialect, sql } from 'kysely';
import { foldForSearch } from '../../search/search-folding.js';

/**
 * SQLite's connection-level specifics: opening the file with its pragmas, statement caching, the
 * Unicode case-folding search function, and the file chores of the SQLite-only tools (backup,
 * restore). Repositories and services reach the search and error helpers only through
 * `sqliteEngine` (see engine.ts), so they never see which engine is in use.
 */

/** An open SQLite connection: the raw handle (for pragmas, backup), the Kysely dialect over it, and
 * the one cache of prepared statements both Kysely and the statement runner use. */
export interface SqliteConnection {
  raw: Database.Database;
  dialect: SqliteDialect;
  statements: SqliteStatements;
}

export { foldForSearch };

/** How to open SQLite. */
export interface SqliteOptions {
  /**
   * Path of a better-sqlite3 addon built for another runtime (Electron's ABI), so one checkout can
   * serve both `node` and Electron without rebuilding back and forth.
   */
  nativeBinding?: string;
}

/** A statement that changes the schema (tested at every prepare: others fail at their first letter). */
const SCHEMA_STATEMENT = /^\s*(?:alter|create|drop)\s/i;

/** How many prepared statements to keep; the SQL shapes of a running server are few. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Prepared statements by SQL text, oldest dropped first. Preparing costs more than running most of
 * Quire's queries, so the same SQL reuses one statement, whether Kysely runs it or the statement
 * runner does.
 */
export class SqliteStatements {
  private readonly cache = new Map<string, Database.Statement>();
  private ddl = 0;

  constructor(private readonly raw: Database.Database) {}

  /**
   * How many schema statements (CREATE, ALTER, DROP) were prepared to run: after one, SQLite may
   * prepare a statement again with other result columns (sqlite-row-shapes.ts reads them again),
   * and the in-memory search reads the schema's version again (sqlite-memory-search-state.ts).
   */
  get schemaChanges(): number {
    return this.ddl;
  }

  /** The prepared statement for `source`, prepared on first use. */
  prepare(source: string): Database.Statement {
    if (SCHEMA_STATEMENT.test(source)) this.ddl++;
    let statement = this.cache.get(source);
    if (!statement) {
      statement = this.raw.prepare(source);
      if (this.cache.size >= STATEMENT_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(source, statement);
    }
    return statement;
  }

  /** Forgets every statement (before the connection closes). */
  clear(): void {
    this.cache.clear();
  }
}

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
  // No mmap, and SQLite's own 2 MB page cache rather than the 16 MB better-sqlite3 builds it with
  // (SQLITE_DEFAULT_CACHE_SIZE=-16000): mapped pages count in the server's memory as they are
  // touched, and the list indexes sit at the end of the file, so a smaller map misses them; a
  // larger cache adds to the server's memory without faster lists, since the read cache keeps
  // counts between writes and the operating system's cache keeps the file's pages either way.
  raw.pragma('cache_size = -2000');
  raw.function('quire_fold', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? foldForSearch(value) : value,
  );
  const statements = new SqliteStatements(raw);
  return { raw, dialect: new SqliteDialect({ database: withStatementCache(raw, statements) }), statements };
}

/** The connection as Kysely sees it, preparing through the shared statement cache. */
function withStatementCache(raw: Database.Database, statements: SqliteStatements): Database.Database {
  return new Proxy(raw, {
    get(target, property, receiver) {
      if (property === 'prepare') return (source: string) => statements.prepare(source);
      if (property === 'close') {
        return () => {
          statements.clear();
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
  const tests = columns.map((column) => sql<SqlBool>`instr(quire_fold(${sql.id(column)}), ${needle}) > 0`);
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

/** Whether the JSON array stored in `column` holds `value` (tags membership). */
export function jsonArrayContains(column: string, value: unknown): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from json_each(${sql.id(column)}) where json_each.value = ${value})`;
}

/** Whether an error is SQLite's unique-constraint failure (a conflict the client can fix). */
export function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  );
}

/**
 * Copies the live database behind `raw` into `destination` with SQLite's online backup API (a batch
 * of pages at a time between other work; writes made meanwhile end up in the copy), then turns the
 * copy into one self-contained file (rollback journal, no `-wal` beside it).
 */
export async function backupSqlite(raw: Database.Database, destination: string, options: SqliteOptions = {}) {
  await raw.backup(destination);
  const copy = new Database(destination, nativeBindingOption(options));
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** What `inspectSqliteFile` found. */
export interface SqliteFileReport {
  /** Null when the file opened and `PRAGMA integrity_check` said ok. */
  problem: string | null;
  tables: string[];
}

/** Opens a file read-only, runs `PRAGMA integrity_check` and lists its tables; never throws. */
export function inspectSqliteFile(file: string, options: SqliteOptions = {}): SqliteFileReport {
  let raw: Database.Database | undefined;
  try {
    raw = new Database(file, { ...nativeBindingOption(options), readonly: true, fileMustExist: true });
    const integrity = raw.pragma('integrity_check', { simple: true });
    const tables = raw.prepare(`select name from sqlite_master where type = 'table'`).pluck().all() as string[];
    return { problem: integrity === 'ok' ? null : `integrity check failed: ${String(integrity)}`, tables };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const problem = code === 'SQLITE_NOTADB' ? 'it is not a SQLite database' : (error as Error).message;
    return { problem, tables: [] };
  } finally {
    raw?.close();
  }
}

/**
 * Takes an exclusive lock on a database file without waiting. SQLite's file locks are held by every
 * open connection (in any process, released when it exits or crashes), so failing here means
 * something has the file open. Returns null then; otherwise a connection holding the lock, with
 * the WAL checkpointed into the main file so the file alone is the whole database.
 */
export function lockSqliteExclusively(file: string, options: SqliteOptions = {}): Database.Database | null {
  const raw = new Database(file, { ...nativeBindingOption(options), fileMustExist: true, timeout: 0 });
  try {
    raw.pragma('locking_mode = EXCLUSIVE');
    raw.exec('BEGIN EXCLUSIVE; COMMIT;');
    raw.pragma('wal_checkpoint(TRUNCATE)');
    return raw;
  } catch (error) {
    raw.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw error;
  }
}

/** A raw SQLite connection, for chores outside Kysely (backups, restores). */
export type SqliteHandle = Database.Database;

/**
 * Opens an existing database file as it is: no pragmas, no migrations (for copying it). Waits up to
 * 5 s for a lock held by another connection.
 */
export function openSqliteFile(file: string, options: SqliteOptions & { readonly?: boolean } = {}): SqliteHandle {
  return new Database(file, {
    ...nativeBindingOption(options),
    readonly: options.readonly ?? false,
    fileMustExist: true,
    timeout: 5000,
  });
}

function nativeBindingOption(options: SqliteOptions): Database.Options {
  return options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
}
