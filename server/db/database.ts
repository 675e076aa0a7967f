import { resolve } from 'node:path';
import type { Kysely } from 'kysely';
import type { BackupJob } from '../backup/backup-service.js';
import type { CopiedMedia } from '../backup/site-copy.js';
import type { ProgressLine } from '../cli/progress-line.js';
import type { UnusedMedia } from '../media/media-prune.js';
import type { MediaReferenceSource } from '../media/media-references.js';
import type { MediaStore } from '../media/media-store.js';
import type { BulkImportTimings, BulkWriter } from './bulk-writer.js';
import type { DatabaseEngine } from './engine.js';
import type { OpenPostgresOptions, PostgresQuireDb } from './postgres/postgres-database.js';
import { describeTarget, type PostgresTarget, parsePostgresUrl } from './postgres/postgres-url.js';
import type { QuireDatabase } from './schema.js';
import { type OpenSqliteOptions, SqliteQuireDb } from './sqlite/sqlite-database.js';
import { sqliteSite } from './sqlite/sqlite-site.js';
import type { StatementRunner } from './statement-runner.js';

export type { OpenPostgresOptions, PostgresQuireDb } from './postgres/postgres-database.js';
/**
 * Whether an error means the database went away rather than that a statement failed (answered 503
 * `database_unavailable`), and whether a COMMIT's outcome is unknown. Only PostgreSQL is reached over
 * a connection that can go away; a SQLite error is never either.
 */
export { isCommitOutcomeUnknown, isDatabaseUnavailable } from './postgres/postgres-errors.js';
/** A PostgreSQL database's address, as the configuration names one (`--database`, `QUIRE_DATABASE_URL`). */
/** Any text (a bad argument, a driver message) with the credentials of the database URLs in it removed. */
export {
  type PostgresTarget,
  parsePostgresUrl,
  redactPostgresUrl as redactDatabaseUrls,
} from './postgres/postgres-url.js';
export { type OpenSqliteOptions, openDatabase, SqliteQuireDb } from './sqlite/sqlite-database.js';

/**
 * An open Quire database, whichever engine holds it: everything Quire does with a database beyond
 * the SQL the repositories write goes through these members, which each engine implements in its
 * own folder (`sqlite/sqlite-database.ts`, `postgres/postgres-database.ts`). No caller asks which
 * engine it runs on; a capability one engine lacks is a no-op there, or a property named for what
 * it means (`sharedByServers`).
 */
export interface QuireDb {
  readonly db: Kysely<QuireDatabase>;
  /** What the repositories' SQL cannot say the same way on every engine. */
  readonly engine: DatabaseEngine;
  /** Where it is, for messages: the file, or `host:port/database` (never credentials). */
  readonly description: string;
  /**
   * Runs compiled statements as reused prepared statements, where one process owns the database
   * and so may keep a read cache (SQLite); undefined where other servers may write (PostgreSQL).
   */
  readonly runner: StatementRunner | undefined;
  /**
   * Whether other servers may use the database at the same time: each then looks for the others'
   * content-type changes, and delivers hook events under a lease.
   */
  readonly sharedByServers: boolean;
  /** Resolves once the open database holds every file it will hold (after its background start-up). */
  readonly ready: Promise<void>;
  /** The uploads as a site copy reads and writes them. */
  readonly uploads: SiteUploads;
  /** Forgets what the connections prepared for the content tables' old columns (a content type changed). */
  afterTypesChanged(): void;
  /** Where uploads are kept and what refers to them, or null where there is nowhere to keep them. */
  media(): DatabaseMedia | null;
  /**
   * Runs `work` as one transaction of bulk writes into `table` (all rows or none): `work` returns
   * whether to commit. `lookupColumns` are those the writer looks values up in (slugs); `timings`
   * gets the time the indexes took.
   */
  bulkImport(
    table: string,
    columns: readonly string[],
    lookupColumns: readonly string[],
    work: (writer: BulkWriter) => Promise<boolean>,
    timings?: BulkImportTimings,
  ): Promise<boolean>;
  /** The server's scheduled backups, or null where there is nothing to back up (a database in memory). */
  backupJob(options: ScheduledBackupOptions): BackupJob | null;
  /** Brings planner statistics up to date after `table` was loaded in bulk, in the load's transaction `db`. */
  afterRowsLoaded(db: Kysely<unknown>, table: string): Promise<void>;
  /** Rows were inserted with their ids in transaction `db`: identity columns continue after them. */
  afterIdsLoaded(db: Kysely<unknown>): Promise<void>;
  /** After a bulk load of `tables` committed: whatever lets lists read their indexes alone. */
  afterLoadCommitted(tables: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Where a database's uploads are kept, and the rows that refer to them. */
export interface DatabaseMedia {
  store: MediaStore;
  /** Where references to uploads are looked for (unused uploads are those none refers to). */
  sources: () => readonly MediaReferenceSource[];
  /** The folder on this machine where resized variants of images are cached (see ImageVariants). */
  variantCacheDir: string;
}

/** A database's uploads as a site copy reads and writes them. */
export interface SiteUploads {
  /** Every upload, one at a time (bytes can be large), read through `db`: the database or a snapshot of it. */
  read(db: Kysely<QuireDatabase>): AsyncGenerator<CopiedMedia>;
  /** How many uploads there are. */
  count(): Promise<number>;
  /**
   * How many uploads a copy into this database would remove: those kept in the database itself. A
   * copy writes files beside a database over the ones there and removes none.
   */
  replaceable(db: Kysely<QuireDatabase>): Promise<number>;
  /** Removes the uploads a copy replaces, in its transaction `db`. */
  clear(db: Kysely<unknown>): Promise<void>;
  /**
   * Keeps an upload, in the copy's transaction `db` where uploads live in the database; returns how
   * to take it back when the copy fails after all, or null when the transaction does that.
   */
  write(db: Kysely<unknown>, media: CopiedMedia): Promise<(() => Promise<void>) | null>;
  /**
   * Keeps an arriving upload's bytes as they came (its cleaning changed or refused them) where they
   * are never served: where they went, for a log line, and how to take them back when the copy fails;
   * null where no copy is kept (the copy's source still holds them).
   */
  setAside(path: string, bytes: Buffer): Promise<{ kept: string; undo: () => Promise<void> } | null>;
}

/** Options of a server's scheduled backups. */
export interface ScheduledBackupOptions {
  /** How many backups to keep. */
  keep?: number;
  /**
   * Where backups go where they are not beside the database (PostgreSQL's): needed there, ignored
   * beside a SQLite file. The configuration's default is `defaultBackupDir`.
   */
  dir?: string;
}

/**
 * Connects to a PostgreSQL database and migrates it (postgres-database.ts `openPostgres`). The
 * PostgreSQL modules and node-postgres load only here: a SQLite server never pays for them.
 */
export async function openPostgresDatabase(
  target: PostgresTarget,
  options: OpenPostgresOptions = {},
): Promise<PostgresQuireDb> {
  const { openPostgres } = await import('./postgres/postgres-database.js');
  return openPostgres(target, options);
}

/** Which database: a SQLite file, or a PostgreSQL database when `postgres` is given. */
export interface DatabaseLocation {
  dbFile: string;
  postgres?: PostgresTarget | null;
}

/** How to open a database, for each engine it may turn out to be. */
export interface OpenOptions {
  sqlite?: OpenSqliteOptions;
  postgres?: OpenPostgresOptions;
  /** False for a command that reads and never searches: no in-memory search index is built or kept. */
  memorySearch?: boolean;
}

/**
 * A database where it lies, before it is opened: what the commands do to a site a server may be
 * using at the same time. Each engine implements it in its folder (`sqlite/sqlite-site.ts`,
 * `postgres/postgres-site.ts`), with messages that say where its backups and uploads are.
 */
export interface DatabaseSite {
  /** Where it is, for messages: the file, or `host:port/database` (never credentials). */
  readonly description: string;
  /**
   * Whether there is a database there to read: opening a missing file would create one, so a
   * command that only reads it asks first. A PostgreSQL database must exist to be reached at all.
   */
  exists(): boolean;
  /**
   * Refuses (BackupError) a location with no Quire database to open: a SQLite file missing,
   * damaged or without the content-type registry (opening would create or change it). A
   * PostgreSQL database must exist to be reached at all, which opening says.
   */
  requireQuireDatabase(): void;
  /**
   * Whether backups are kept beside the database (a SQLite file's `backups/`): no other folder can
   * be named for them, and a restore always keeps the database it replaces there.
   */
  readonly backupsBesideDatabase: boolean;
  /** Opens it (creating a SQLite file) and migrates it to the current schema. */
  open(options?: OpenOptions): Promise<QuireDb>;
  /** Lists, or with `deleting` deletes, the uploads no row uses; the rows are only read. */
  pruneMedia(deleting: boolean): Promise<UnusedMedia>;
  /**
   * `quire backup`: takes a backup (in `dir` where backups are not kept beside the database: the
   * flag's folder, else `defaultBackupDir`); the line saying where.
   */
  backup(options: { dir: string; progress: ProgressLine }): Promise<string>;
  /**
   * `quire restore BACKUP`: restores a backup folder into it (`force`: replacing content, where the
   * replaced content is not kept anyway); the line saying what came back.
   */
  restore(backup: string, options: { dir: string; force?: boolean; progress: ProgressLine }): Promise<string>;
}

/** The database a command names by a SQLite file's path or a `postgres://` URL (a bad URL throws). */
export function databaseLocationOf(text: string): DatabaseLocation {
  if (/^postgres(ql)?:\/\//i.test(text)) return { dbFile: '', postgres: parsePostgresUrl(text) };
  return { dbFile: resolve(text) };
}

/** Where `location` is, for a message: `database FILE` or `PostgreSQL database host:port/name` (never credentials). */
export function describeLocation(location: DatabaseLocation): string {
  return location.postgres ? `PostgreSQL database ${describeTarget(location.postgres)}` : `database ${location.dbFile}`;
}

/** The database at `location`, not opened yet. The PostgreSQL modules load only for a PostgreSQL one. */
export async function databaseSite(location: DatabaseLocation): Promise<DatabaseSite> {
  if (!location.postgres) return sqliteSite(location.dbFile);
  const { postgresSite } = await import('./postgres/postgres-site.js');
  return postgresSite(location.postgres);
}

/** Opens the database at `location` (see `DatabaseSite.open`). */
export async function openDatabaseAt(location: DatabaseLocation, options: OpenOptions = {}): Promise<QuireDb> {
  return (await databaseSite(location)).open(options);
}

/** The SQLite side of a database, or an error saying that `what` needs one (tests of SQLite specifics). */
export function requireSqlite(database: QuireDb, what: string): SqliteQuireDb {
  if (database instanceof SqliteQuireDb) return database;
  throw new Error(`${what} works on a SQLite database only, not on ${database.description}`);
}
