import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import type { BackupJob } from '../../backup/backup-service.js';
import { SNAPSHOT_MIN_ROWS, type SnapshotUnused } from '../../search/search-snapshot-files.js';
import { AFTER_MIGRATION_STEPS } from '../after-migration-steps.js';
import type { BulkImportTimings, BulkWriter } from '../bulk-writer.js';
import type { DatabaseMedia, QuireDb, ScheduledBackupOptions, SiteUploads } from '../database.js';
import { migrateDatabase } from '../database-migrate.js';
import { type DatabaseEngine, withoutMemorySearch } from '../engine.js';
import { forEachContentTable } from '../migrations/content-table-steps.js';
import { withoutOrderKeys } from '../queries/order-key-columns.js';
import { continueAuditIds } from '../repositories/audit-repository.js';
import { continueRevisionIds } from '../repositories/revision-repository.js';
import type { QuireDatabase } from '../schema.js';
import { backupPostgres } from './postgres-backup.js';
import { postgresBackupPlace } from './postgres-backup-place.js';
import { markAllVisible, runPostgresBulkImport } from './postgres-bulk-import.js';
import { connectPostgres, type PostgresPoolOptions } from './postgres-connection.js';
import { QuirePostgresDialect } from './postgres-dialect.js';
import { postgresEngine } from './postgres-engine.js';
import { postgresContentRowReferences } from './postgres-media-repository.js';
import { PostgresMediaStore } from './postgres-media-store.js';
import { postgresSavedIndexes } from './postgres-search-snapshot.js';
import { postgresSiteUploads } from './postgres-site-uploads.js';
import { StatementNames } from './postgres-statement-names.js';
import { describeTarget, type PostgresTarget } from './postgres-url.js';

/**
 * Where a PostgreSQL site's image variants are cached: on this server's own disk, not in the
 * database, so each server makes a variant once and keeps it; files are named by content hash,
 * so the servers and sites of one machine can share the folder.
 */
export const POSTGRES_VARIANT_CACHE_DIR = join(tmpdir(), 'quire-variants');

/** How to open a PostgreSQL database. */
export interface OpenPostgresOptions extends PostgresPoolOptions {
  /**
   * Save the in-memory search indexes of tables of `minRows` rows up (default SNAPSHOT_MIN_ROWS) in
   * a folder of `folder` when the database closes, and read them back at the next start instead of
   * building them (postgres-search-snapshot.ts): for a server, and for `quire import`. `onFailure`
   * hears why they could not be saved, `onUnused` why a saved one was not read back (its first
   * search then waits for a build).
   */
  savedSearchIndexes?: {
    folder: string;
    minRows?: number;
    onFailure?: (error: unknown) => void;
    onUnused?: SnapshotUnused;
  };
  /** False: no in-memory search index (see `withoutMemorySearch`). */
  memorySearch?: boolean;
}

/**
 * Connects to a PostgreSQL database (which must exist) and migrates it to the current schema.
 * Kysely's migrator holds a PostgreSQL advisory lock while it migrates, so servers starting
 * together migrate once. An unreachable server fails with `connectPostgres`'s one-line error.
 */
export async function openPostgres(
  target: PostgresTarget,
  options: OpenPostgresOptions = {},
): Promise<PostgresQuireDb> {
  const { pool } = await connectPostgres(target, options);
  const statementNames = new StatementNames();
  pool.on('connect', (client) => statementNames.attach(client));
  // Rows read never show the order key columns PostgreSQL keeps beside text columns.
  const db = new Kysely<QuireDatabase>({ dialect: new QuirePostgresDialect({ pool }), plugins: [withoutOrderKeys] });
  const ran = await migrateDatabase(db, postgresEngine, AFTER_MIGRATION_STEPS);
  if (ran.includes('021-order-key-columns')) {
    // It wrote every content table again: a rewritten table has an empty visibility map, and
    // autovacuum counts no rows to come for it, so until a VACUUM every index walk reads the table.
    const untyped = db as unknown as Kysely<unknown>;
    await forEachContentTable(untyped, postgresEngine, (table) => markAllVisible(untyped, table));
  }
  const saving = options.savedSearchIndexes;
  let beforeClose: (() => Promise<void>) | null = null;
  if (saving) {
    const untyped = db as unknown as Kysely<unknown>;
    try {
      const minRows = saving.minRows ?? SNAPSHOT_MIN_ROWS;
      const place = { file: null, folder: saving.folder, minRows, onUnused: saving.onUnused };
      const tables = await postgresSavedIndexes.keepSavedIndexes(untyped, undefined, place);
      // Loaded now, in the background, while the server gets ready to listen.
      for (const table of tables) postgresEngine.searchIndex.memory?.warm(untyped, undefined, table);
      // A failure to save costs the next start a build, nothing more.
      beforeClose = () =>
        postgresSavedIndexes.saveIndexes(untyped, undefined).then(() => undefined, saving.onFailure ?? (() => {}));
    } catch (error) {
      // The database's identity could not be read (a server that refuses pg_control_system() to
      // this user, say): indexes are built at each start, neither saved nor read back.
      saving.onFailure?.(error);
    }
  }
  const engine = options.memorySearch === false ? withoutMemorySearch(postgresEngine) : postgresEngine;
  return new PostgresQuireDb({ db, target, statementNames, beforeClose, engine });
}

/** What `openPostgres` hands a PostgreSQL database once it is connected and migrated. */
interface PostgresQuireDbParts {
  db: Kysely<QuireDatabase>;
  target: PostgresTarget;
  statementNames: StatementNames;
  /** Runs before the pool closes (saving search indexes). */
  beforeClose: (() => Promise<void>) | null;
  engine: DatabaseEngine;
}

/**
 * A PostgreSQL database, which several servers may share: no statement runner (and so no read
 * cache, which assumes one process), uploads in `quire_media` so every server serves every one,
 * backups written through a read-only snapshot into the SQLite backup format.
 */
export class PostgresQuireDb implements QuireDb {
  readonly db: Kysely<QuireDatabase>;
  readonly engine: DatabaseEngine;
  readonly description: string;
  readonly target: PostgresTarget;
  readonly runner = undefined;
  readonly sharedByServers = true;
  readonly ready = Promise.resolve();
  readonly uploads: SiteUploads;
  /** The connections' named statements (postgres-statement-names.ts). */
  readonly statementNames: StatementNames;
  private readonly beforeClose: (() => Promise<void>) | null;
  private closing: Promise<void> | undefined;

  constructor(parts: PostgresQuireDbParts) {
    this.db = parts.db;
    this.engine = parts.engine;
    this.target = parts.target;
    this.description = describeTarget(parts.target);
    this.statementNames = parts.statementNames;
    this.uploads = postgresSiteUploads(parts.db);
    this.beforeClose = parts.beforeClose;
  }

  /** Named statements prepared for the old columns would fail: each connection prepares them anew. */
  afterTypesChanged(): void {
    this.statementNames.forget();
  }

  media(): DatabaseMedia {
    return {
      store: new PostgresMediaStore(this.db),
      sources: () => [postgresContentRowReferences(this.db)],
      variantCacheDir: POSTGRES_VARIANT_CACHE_DIR,
    };
  }

  bulkImport(
    table: string,
    columns: readonly string[],
    lookupColumns: readonly string[],
    work: (writer: BulkWriter) => Promise<boolean>,
    timings?: BulkImportTimings,
  ): Promise<boolean> {
    return runPostgresBulkImport(this, table, columns, lookupColumns, work, timings);
  }

  /** Each server that has backups on takes its own, in the folder its configuration names. */
  backupJob(options: ScheduledBackupOptions): BackupJob {
    if (options.dir === undefined) {
      throw new Error(`Scheduled backups of ${this.description} need a folder to go to (backups.dir)`);
    }
    const place = postgresBackupPlace(this.target, options.dir);
    return { what: this.description, place, take: () => backupPostgres(this, place, { keep: options.keep }) };
  }

  async afterRowsLoaded(db: Kysely<unknown>, table: string): Promise<void> {
    await sql`analyze ${sql.table(table)}`.execute(db);
  }

  async afterIdsLoaded(db: Kysely<unknown>): Promise<void> {
    await continueRevisionIds(db);
    await continueAuditIds(db);
  }

  /** A table written in bulk has an empty visibility map until vacuumed: index walks would read it. */
  async afterLoadCommitted(tables: readonly string[]): Promise<void> {
    for (const table of tables) await markAllVisible(this.db as unknown as Kysely<unknown>, table);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.beforeClose?.();
      await this.db.destroy();
    })();
    return this.closing;
  }
}
