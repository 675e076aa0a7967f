import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { DEFAULT_MIGRATION_TABLE, Kysely, type MigrationProvider, Migrator } from 'kysely';
import { readSavedTables, SNAPSHOT_MIN_ROWS, type SnapshotUnused } from '../search/search-snapshot-files.js';
import type { DatabaseEngine } from './engine.js';
import { forEachContentTable } from './migrations/content-table-steps.js';
import { migrationProvider } from './migrations/index.js';
import type { PostgresPoolOptions } from './postgres/postgres-connection.js';
import type { StatementNames } from './postgres/postgres-statement-names.js';
import { describeTarget, type PostgresTarget } from './postgres/postgres-url.js';
import { withoutOrderKeys } from './queries/order-key-columns.js';
import type { QuireDatabase } from './schema.js';
import { type Checkpointer, startCheckpointer } from './sqlite/sqlite-checkpointer.js';
import { openSqlite, type SqliteOptions } from './sqlite/sqlite-dialect.js';
import { sqliteEngine } from './sqlite/sqlite-engine.js';
import { sqliteMemorySearch } from './sqlite/sqlite-memory-search.js';
import { saveSearchIndexes } from './sqlite/sqlite-memory-search-build.js';
import { keepSearchSnapshots, snapshotFolder } from './sqlite/sqlite-search-snapshot.js';
import { sqliteStatementRunner } from './sqlite/sqlite-statement-runner.js';
import type { StatementRunner } from './statement-runner.js';

/**
 * An open Quire database: the Kysely instance, the engine behind it (everything engine-specific the
 * repositories need), and on SQLite the raw handle and the file for the SQLite-only chores (backups,
 * media beside the file, direct statements). Code that needs those narrows on `kind`, so a
 * PostgreSQL database can never reach them by mistake.
 */
export type QuireDb = SqliteQuireDb | PostgresQuireDb;

/** What every open database has. */
interface OpenDatabase {
  db: Kysely<QuireDatabase>;
  engine: DatabaseEngine;
  /** Where it is, for messages: the file, or `host:port/database` (never credentials). */
  description: string;
  close(): Promise<void>;
}

/** A SQLite database file. */
export interface SqliteQuireDb extends OpenDatabase {
  kind: 'sqlite';
  raw: Database.Database;
  /** Runs compiled reads as reused prepared statements (the hot read path). */
  runner: StatementRunner;
  file: string;
  /**
   * Resolves once WAL checkpoints run in their worker (true), or stay with SQLite on this connection
   * (false: not asked for, or the worker could not start). See `OpenSqliteOptions.checkpointWorker`.
   */
  checkpointsInWorker: Promise<boolean>;
}

/**
 * A PostgreSQL database. It has no statement runner (and so no read cache, which assumes one
 * process: several servers may share the database) and no file.
 */
export interface PostgresQuireDb extends OpenDatabase {
  kind: 'postgres';
  raw: null;
  runner?: undefined;
  file: null;
  /** The connections' named statements (postgres-statement-names.ts): forgotten when content types change. */
  statementNames: StatementNames;
}

/** How to open a database file. */
export interface OpenSqliteOptions extends SqliteOptions {
  /**
   * Checkpoint the WAL in a worker thread while the database is open (sqlite-checkpointer.ts): for
   * a server, whose writes would otherwise stop every request during SQLite's own checkpoints.
   * `onFailure` hears why the worker could not run (SQLite's own checkpoints then go on).
   */
  checkpointWorker?: { onFailure?: (error: unknown) => void };
  /**
   * Save the in-memory search indexes of tables of `minRows` rows up (default SNAPSHOT_MIN_ROWS) when
   * the database closes, and read them back at the next start instead of building them
   * (sqlite-search-snapshot.ts): for a server. `onFailure` hears why one could not be saved,
   * `onUnused` why a saved one was not read back (its first search then waits for a build).
   */
  searchSnapshots?: { minRows?: number; onFailure?: (error: unknown) => void; onUnused?: SnapshotUnused };
}

/**
 * Opens a database file (creating it and its folder if missing) and migrates it to the current
 * schema. A file that is not a SQLite database fails here with a clear error, before serving.
 */
export async function openDatabase(file: string, options: OpenSqliteOptions = {}): Promise<SqliteQuireDb> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const snapshots = file !== ':memory:' ? options.searchSnapshots : undefined;
  // Saved search indexes are read from now on, while the database opens and migrates.
  const saved = snapshots ? readSavedTables(snapshotFolder(file)) : null;
  const { raw, dialect, statements } = openSqlite(file, options);
  const db = new Kysely<QuireDatabase>({ dialect });
  await migrate(db, sqliteEngine);
  const checkpointer =
    options.checkpointWorker && file !== ':memory:'
      ? startCheckpointer(raw, file, { nativeBinding: options.nativeBinding, ...options.checkpointWorker })
      : null;
  const runner = sqliteStatementRunner(raw, statements);
  if (snapshots && saved) {
    keepSearchSnapshots(runner, snapshotFolder(file), snapshots.minRows ?? SNAPSHOT_MIN_ROWS, snapshots.onUnused);
    // Saved indexes are loaded now, in the background, while the server gets ready to listen: the
    // first search then finds them loaded (a table's first read would start it later).
    void saved.then((tables) => {
      for (const table of tables) sqliteMemorySearch.warm(db as unknown as Kysely<unknown>, runner, table);
    });
  }
  // Saved before the connection closes; a failure to save costs the next start a build, nothing more.
  const beforeClose = snapshots
    ? () =>
        saveSearchIndexes(db as unknown as Kysely<unknown>, runner).then(
          () => undefined,
          snapshots.onFailure ?? (() => {}),
        )
    : null;
  return {
    kind: 'sqlite',
    db,
    engine: sqliteEngine,
    description: file,
    raw,
    runner,
    file,
    checkpointsInWorker: checkpointer?.started ?? Promise.resolve(false),
    close: closeOnce(db, checkpointer, beforeClose),
  };
}

/** How to open a PostgreSQL database. */
export interface OpenPostgresOptions extends PostgresPoolOptions {
  /**
   * Save the in-memory search indexes of tables of `minRows` rows up (default SNAPSHOT_MIN_ROWS) in
   * a folder of `folder` when the database closes, and read them back at the next start instead of
   * building them (postgres-search-snapshot.ts): for a server, and for `quire import`. `onFailure`
   * hears why they could not be saved, `onUnused` why a saved one was not read back (its first
   * search then waits for a build).
   */
  searchSnapshots?: {
    folder: string;
    minRows?: number;
    onFailure?: (error: unknown) => void;
    onUnused?: SnapshotUnused;
  };
}

/**
 * Connects to a PostgreSQL database (which must exist) and migrates it to the current schema.
 * Kysely's migrator holds a PostgreSQL advisory lock while it migrates, so servers starting
 * together migrate once. An unreachable server fails with `connectPostgres`'s one-line error.
 */
export async function openPostgresDatabase(
  target: PostgresTarget,
  options: OpenPostgresOptions = {},
): Promise<PostgresQuireDb> {
  // node-postgres and the PostgreSQL modules load only here: a SQLite server never pays for them
  // (70-100 ms of every start, issue 13).
  const [{ connectPostgres }, { QuirePostgresDialect }, { postgresEngine }, { StatementNames }, snapshots] =
    await Promise.all([
      import('./postgres/postgres-connection.js'),
      import('./postgres/postgres-dialect.js'),
      import('./postgres/postgres-engine.js'),
      import('./postgres/postgres-statement-names.js'),
      import('./postgres/postgres-search-snapshot.js'),
    ]);
  const { markAllVisible } = await import('./postgres/postgres-bulk-import.js');
  const { pool } = await connectPostgres(target, options);
  const statementNames = new StatementNames();
  pool.on('connect', (client) => statementNames.attach(client));
  // Rows read never show the order key columns PostgreSQL keeps beside text columns.
  const db = new Kysely<QuireDatabase>({ dialect: new QuirePostgresDialect({ pool }), plugins: [withoutOrderKeys] });
  const ran = await migrate(db, postgresEngine);
  if (ran.includes('021-order-key-columns')) {
    // It wrote every content table again: a rewritten table has an empty visibility map, and
    // autovacuum counts no rows to come for it, so until a VACUUM every index walk reads the table.
    const untyped = db as unknown as Kysely<unknown>;
    await forEachContentTable(untyped, postgresEngine, (table) => markAllVisible(untyped, table));
  }
  const saving = options.searchSnapshots;
  let beforeClose: (() => Promise<void>) | null = null;
  if (saving) {
    const untyped = db as unknown as Kysely<unknown>;
    try {
      const tables = await snapshots.keepSearchIndexes(
        untyped,
        saving.folder,
        saving.minRows ?? SNAPSHOT_MIN_ROWS,
        saving.onUnused,
      );
      // Loaded now, in the background, while the server gets ready to listen.
      for (const table of tables) postgresEngine.searchIndex.memory?.warm(untyped, undefined, table);
      // A failure to save costs the next start a build, nothing more.
      beforeClose = () => snapshots.saveSearchIndexes(untyped).then(() => undefined, saving.onFailure ?? (() => {}));
    } catch (error) {
      // The database's identity could not be read (a server that refuses pg_control_system() to
      // this user, say): indexes are built at each start, neither saved nor read back.
      saving.onFailure?.(error);
    }
  }
  return {
    kind: 'postgres',
    db,
    engine: postgresEngine,
    statementNames,
    description: describeTarget(target),
    raw: null,
    file: null,
    close: closeOnce(db, null, beforeClose),
  };
}

/** The SQLite side of a database, or an error saying that `what` needs one. */
export function requireSqlite(database: QuireDb, what: string): SqliteQuireDb {
  if (database.kind === 'sqlite') return database;
  throw new Error(`${what} works on a SQLite database only; this one is PostgreSQL (${database.description})`);
}

/** Migrates `db` to the current schema; the names of the migrations this call ran. */
async function migrate(db: Kysely<QuireDatabase>, engine: DatabaseEngine): Promise<string[]> {
  try {
    const provider = migrationProvider(engine);
    if (await migratedAlready(db, provider)) return [];
    const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
    if (error) throw error;
    return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/**
 * Whether `db` has run exactly the migrations `provider` has (the usual start): one statement. The
 * Migrator would first look its tables up in the catalog and take its lock, about 35 ms of every
 * start on PostgreSQL (two catalog queries of ~9 ms, a second connection). Anything else (a new
 * database, migrations to run, a database a newer Quire migrated) is the Migrator's to handle.
 * Migrations commit with their names, so every name present means every migration committed.
 */
async function migratedAlready(db: Kysely<QuireDatabase>, provider: MigrationProvider): Promise<boolean> {
  const wanted = Object.keys(await provider.getMigrations());
  let ran: string[];
  try {
    const untyped = db as unknown as Kysely<Record<string, { name: string }>>;
    ran = (await untyped.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute()).map((row) => row.name);
  } catch {
    return false;
  }
  const done = new Set(ran);
  return ran.length === wanted.length && wanted.every((name) => done.has(name));
}

function closeOnce(
  db: Kysely<QuireDatabase>,
  checkpointer: Checkpointer | null = null,
  beforeClose: (() => Promise<void>) | null = null,
): () => Promise<void> {
  let closed = false;
  return async () => {
    if (closed) return;
    closed = true;
    await beforeClose?.();
    // The worker's connection closes first: the last one to close checkpoints and removes the WAL.
    await checkpointer?.stop();
    await db.destroy();
  };
}
