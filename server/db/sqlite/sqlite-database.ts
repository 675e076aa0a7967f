import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Kysely } from 'kysely';
import type { BackupJob } from '../../backup/backup-service.js';
import { FileMediaStore, mediaDirFor } from '../../media/media-store.js';
import { SNAPSHOT_MIN_ROWS, type SnapshotUnused } from '../../search/search-snapshot-files.js';
import { AFTER_MIGRATION_STEPS } from '../after-migration-steps.js';
import type { BulkImportTimings, BulkWriter } from '../bulk-writer.js';
import type { DatabaseMedia, QuireDb, ScheduledBackupOptions, SiteUploads } from '../database.js';
import { migrateDatabase } from '../database-migrate.js';
import { type DatabaseEngine, withoutMemorySearch } from '../engine.js';
import type { QuireDatabase } from '../schema.js';
import type { StatementRunner } from '../statement-runner.js';
import { sqliteBackupJob } from './sqlite-backup.js';
import { runBulkImport } from './sqlite-bulk-import.js';
import { type Checkpointer, startCheckpointer } from './sqlite-checkpointer.js';
import { openSqlite, type SqliteHandle, type SqliteOptions } from './sqlite-dialect.js';
import { sqliteEngine } from './sqlite-engine.js';
import { mediaReferenceSources } from './sqlite-media-references.js';
import { sqliteMemorySearch } from './sqlite-memory-search.js';
import { sqliteSavedIndexes } from './sqlite-memory-search-build.js';
import { sqliteSiteUploads } from './sqlite-site-uploads.js';
import { sqliteStatementRunner } from './sqlite-statement-runner.js';

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
  savedSearchIndexes?: { minRows?: number; onFailure?: (error: unknown) => void; onUnused?: SnapshotUnused };
  /**
   * The folder of the uploads when they are not in `media/` beside the file (a backup's copy): a
   * site copy then reads them checking the folder itself too (never through a symlink).
   */
  mediaDir?: string;
  /** False: no in-memory search index (see `withoutMemorySearch`). */
  memorySearch?: boolean;
}

/**
 * Opens a database file (creating it and its folder if missing) and migrates it to the current
 * schema. A file that is not a SQLite database fails here with a clear error, before serving.
 */
export async function openDatabase(file: string, options: OpenSqliteOptions = {}): Promise<SqliteQuireDb> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const snapshots = file !== ':memory:' ? options.savedSearchIndexes : undefined;
  const { raw, dialect, statements } = openSqlite(file, options);
  const db = new Kysely<QuireDatabase>({ dialect });
  const untyped = db as unknown as Kysely<unknown>;
  const runner = sqliteStatementRunner(raw, statements);
  // Saved search indexes are read from now on, while the database migrates.
  const saved = snapshots
    ? sqliteSavedIndexes.keepSavedIndexes(untyped, runner, {
        file,
        minRows: snapshots.minRows ?? SNAPSHOT_MIN_ROWS,
        onUnused: snapshots.onUnused,
      })
    : null;
  await migrateDatabase(db, sqliteEngine, AFTER_MIGRATION_STEPS);
  const checkpointer =
    options.checkpointWorker && file !== ':memory:'
      ? startCheckpointer(raw, file, { nativeBinding: options.nativeBinding, ...options.checkpointWorker })
      : null;
  // Saved indexes are loaded now, in the background, while the server gets ready to listen: the
  // first search then finds them loaded (a table's first read would start it later).
  void saved?.then((tables) => {
    for (const table of tables) sqliteMemorySearch.warm(untyped, runner, table);
  });
  // Saved before the connection closes; a failure to save costs the next start a build, nothing more.
  const beforeClose = snapshots
    ? () => sqliteSavedIndexes.saveIndexes(untyped, runner).then(() => undefined, snapshots.onFailure ?? (() => {}))
    : null;
  return new SqliteQuireDb({
    db,
    raw,
    runner,
    file,
    checkpointer,
    beforeClose,
    nativeBinding: options.nativeBinding,
    mediaDir: options.mediaDir,
    engine: options.memorySearch === false ? withoutMemorySearch(sqliteEngine) : sqliteEngine,
  });
}

/** What `openDatabase` hands a SQLite database once the file is open and migrated. */
interface SqliteQuireDbParts {
  db: Kysely<QuireDatabase>;
  raw: SqliteHandle;
  runner: StatementRunner;
  file: string;
  checkpointer: Checkpointer | null;
  /** Runs before the connection closes (saving search indexes). */
  beforeClose: (() => Promise<void>) | null;
  nativeBinding: string | undefined;
  /** The uploads' folder when not `media/` beside the file. */
  mediaDir: string | undefined;
  engine: DatabaseEngine;
}

/**
 * A SQLite database file, owned by this process: reads run as reused prepared statements, uploads
 * live in `media/` beside the file, backups are copies of the file. An in-memory database keeps no
 * uploads and takes no backups.
 */
export class SqliteQuireDb implements QuireDb {
  readonly db: Kysely<QuireDatabase>;
  readonly engine: DatabaseEngine;
  readonly description: string;
  readonly raw: SqliteHandle;
  readonly runner: StatementRunner;
  readonly file: string;
  readonly sharedByServers = false;
  /**
   * Resolves once WAL checkpoints run in their worker (true), or stay with SQLite on this connection
   * (false: not asked for, or the worker could not start). See `OpenSqliteOptions.checkpointWorker`.
   */
  readonly checkpointsInWorker: Promise<boolean>;
  readonly ready: Promise<void>;
  readonly uploads: SiteUploads;
  private readonly parts: SqliteQuireDbParts;
  private closing: Promise<void> | undefined;

  constructor(parts: SqliteQuireDbParts) {
    this.parts = parts;
    this.engine = parts.engine;
    this.db = parts.db;
    this.raw = parts.raw;
    this.runner = parts.runner;
    this.file = parts.file;
    this.description = parts.file;
    this.checkpointsInWorker = parts.checkpointer?.started ?? Promise.resolve(false);
    this.ready = this.checkpointsInWorker.then(() => undefined);
    this.uploads = sqliteSiteUploads(parts.mediaDir ?? mediaDirFor(parts.file), parts.mediaDir !== undefined);
  }

  private get inMemory(): boolean {
    return this.file === ':memory:';
  }

  /** Nothing to forget: SQLite prepares a statement again when it finds the schema changed. */
  afterTypesChanged(): void {}

  media(): DatabaseMedia | null {
    if (this.inMemory) return null;
    const raw = this.raw;
    return {
      store: new FileMediaStore(mediaDirFor(this.file)),
      sources: () => mediaReferenceSources(raw),
      // Beside the media folder: a site's variants live with it, and backups (which copy only media) skip them.
      variantCacheDir: join(dirname(this.file), 'media-cache'),
    };
  }

  bulkImport(
    table: string,
    columns: readonly string[],
    lookupColumns: readonly string[],
    work: (writer: BulkWriter) => Promise<boolean>,
    timings?: BulkImportTimings,
  ): Promise<boolean> {
    return runBulkImport(this, table, columns, lookupColumns, work, timings);
  }

  backupJob(options: ScheduledBackupOptions): BackupJob | null {
    if (this.inMemory) return null;
    return sqliteBackupJob(this.raw, this.file, { keep: options.keep, nativeBinding: this.parts.nativeBinding });
  }

  /** SQLite plans without gathered statistics. */
  async afterRowsLoaded(): Promise<void> {}

  /** An integer primary key continues after the largest id by itself. */
  async afterIdsLoaded(): Promise<void> {}

  async afterLoadCommitted(): Promise<void> {}

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.parts.beforeClose?.();
      // The worker's connection closes first: the last one to close checkpoints and removes the WAL.
      await this.parts.checkpointer?.stop();
      await this.db.destroy();
    })();
    return this.closing;
  }
}
