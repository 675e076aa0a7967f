import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import {
  backupSqlite,
  inspectSqliteFile,
  lockSqliteExclusively,
  openSqliteFile,
  type SqliteHandle,
  type SqliteOptions,
} from './sqlite-dialect.js';

/**
 * Backups of a Quire database: verified copies in a `backups/` folder beside it, the newest
 * KEEP_BACKUPS kept. Taken by the running server (at start, then daily) through its own
 * connection, and by `quire backup` / `quire restore` from the command line.
 */

/** How many backups are kept; older ones are deleted after each successful backup. */
export const KEEP_BACKUPS = 10;
/** Time between the running server's backups. */
export const BACKUP_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** A table every Quire database has (the content-type registry). */
const QUIRE_TABLE = 'quire_content_types';

/** A backup or restore that cannot be done; its message is the one line a user reads. */
export class BackupError extends Error {}

/** Options shared by the backup functions. */
export interface BackupOptions extends SqliteOptions {
  /** Backups to keep (default KEEP_BACKUPS). */
  keep?: number;
  /** The moment the backup is named after (tests). */
  now?: Date;
}

/** The `backups/` folder beside a database file. */
export function backupDir(dbFile: string): string {
  return join(dirname(resolve(dbFile)), 'backups');
}

/**
 * Name of a backup: `<db name>-<UTC timestamp>[-label].sqlite`, e.g.
 * `content-2026-03-01T09-30-00-000Z.sqlite`, so sorting names sorts by time.
 */
export function backupFileName(dbFile: string, at: Date, label?: string): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  return `${databaseStem(dbFile)}-${stamp}${label ? `-${label}` : ''}.sqlite`;
}

/** The backups of a database, oldest first. */
export function listBackups(dbFile: string): string[] {
  const dir = backupDir(dbFile);
  if (!existsSync(dir)) return [];
  const pattern = backupPattern(dbFile);
  return readdirSync(dir)
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * Backs up an open database through its connection: copies it to a partial file, checks the copy
 * with `PRAGMA integrity_check` (opened read-only), then gives it its final name and deletes the
 * backups beyond `keep`. A copy that fails the check is deleted and nothing is pruned.
 */
export async function backupDatabase(
  raw: SqliteHandle,
  dbFile: string,
  options: BackupOptions & { label?: string } = {},
): Promise<string> {
  const dir = backupDir(dbFile);
  mkdirSync(dir, { recursive: true });
  const target = join(dir, backupFileName(dbFile, options.now ?? new Date(), options.label));
  const partial = `${target}.partial`;
  try {
    await backupSqlite(raw, partial, options);
    const report = inspectSqliteFile(partial, options);
    if (report.problem) throw new BackupError(`The backup ${target} failed verification: ${report.problem}`);
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
  }
  pruneBackups(dbFile, options.keep ?? KEEP_BACKUPS);
  return target;
}

/** Deletes all but the newest `keep` backups. */
export function pruneBackups(dbFile: string, keep: number): void {
  const backups = listBackups(dbFile);
  for (const old of backups.slice(0, Math.max(0, backups.length - keep))) rmSync(old, { force: true });
}

/** Deletes partial copies left by a backup that a crash or kill interrupted. */
export function removeUnfinishedBackups(dbFile: string): void {
  const dir = backupDir(dbFile);
  if (!existsSync(dir)) return;
  const stem = `${databaseStem(dbFile)}-`;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(stem) && /\.sqlite\.partial(?:-journal)?$/.test(name)) rmSync(join(dir, name), { force: true });
  }
}

/** Options of the running server's backups. */
export interface BackupScheduleOptions extends BackupOptions {
  /** Time between backups (default BACKUP_INTERVAL_MS). */
  intervalMs?: number;
  /** Where a failed backup is reported; the server keeps running. */
  log: (message: string, error: unknown) => void;
}

/** The running server's backups: one when it starts, then one per interval; one at a time. */
export class BackupSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<string | null> = Promise.resolve(null);
  private stopped = false;

  constructor(
    private readonly raw: SqliteHandle,
    private readonly dbFile: string,
    private readonly options: BackupScheduleOptions,
  ) {}

  /** Takes the start-up backup (in the background) and schedules the next ones. */
  start(): void {
    removeUnfinishedBackups(this.dbFile);
    void this.runNow();
    this.timer = setInterval(() => void this.runNow(), this.options.intervalMs ?? BACKUP_INTERVAL_MS);
    this.timer.unref();
  }

  /** Takes a backup after any one in progress; resolves to its path, or null if it failed. */
  runNow(): Promise<string | null> {
    this.running = this.running.then(async () => {
      if (this.stopped) return null;
      try {
        return await backupDatabase(this.raw, this.dbFile, { ...this.options, now: undefined });
      } catch (error) {
        this.options.log(`Backup of ${this.dbFile} failed`, error);
        return null;
      }
    });
    return this.running;
  }

  /** Cancels future backups and waits for one in progress (before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}

/**
 * `quire backup`: backs up a database file that may be in use by a running server (SQLite lets a
 * second connection read while the server writes). Refuses a file that is not a Quire database.
 */
export async function backupFile(dbFile: string, options: BackupOptions = {}): Promise<string> {
  requireQuireDatabase(dbFile, 'database', options);
  const raw = openSqliteFile(dbFile, options);
  try {
    return await backupDatabase(raw, dbFile, options);
  } finally {
    raw.close();
  }
}

/** What a restore did. */
export interface RestoreResult {
  /** The backup taken of the database that was replaced (null when there was none). */
  previous: string | null;
}

/**
 * `quire restore FILE`: replaces the database with a copy of FILE. FILE must be a Quire database
 * that passes the integrity check; the database must not be open anywhere (a running server, the
 * desktop app), which is detected through SQLite's file lock; the current database is backed up
 * first (label `before-restore`), so a restore can itself be undone.
 */
export async function restoreDatabase(source: string, dbFile: string, options: BackupOptions = {}) {
  const from = resolve(source);
  const to = resolve(dbFile);
  if (from === to) throw new BackupError(`${source} is the database itself; name a backup to restore from`);
  requireQuireDatabase(from, 'backup', options);

  let previous: string | null = null;
  if (existsSync(to)) {
    const lock = lockSqliteExclusively(to, options);
    if (!lock) {
      throw new BackupError(
        `${to} is open in a running Quire server or desktop app (or another program); stop it, then restore`,
      );
    }
    try {
      previous = await backupDatabase(lock, to, { ...options, label: 'before-restore' });
    } finally {
      lock.close();
    }
  }

  // Copy through SQLite (a consistent copy even of a file with a -wal beside it), check it, then
  // swap it in with a rename, after removing WAL files that belonged to the replaced database.
  const incoming = `${to}.restoring`;
  mkdirSync(dirname(to), { recursive: true });
  rmSync(incoming, { force: true });
  const reader = openSqliteFile(from, { ...options, readonly: true });
  try {
    await backupSqlite(reader, incoming, options);
  } finally {
    reader.close();
  }
  const report = inspectSqliteFile(incoming, options);
  if (report.problem) {
    rmSync(incoming, { force: true });
    throw new BackupError(`The copy of ${source} failed verification (${report.problem}); nothing was changed`);
  }
  rmSync(`${to}-wal`, { force: true });
  rmSync(`${to}-shm`, { force: true });
  renameSync(incoming, to);
  return { previous } satisfies RestoreResult;
}

function requireQuireDatabase(file: string, role: 'database' | 'backup', options: SqliteOptions): void {
  if (!existsSync(file)) throw new BackupError(`There is no ${role} file at ${file}`);
  const report = inspectSqliteFile(file, options);
  if (report.problem) throw new BackupError(`${file} is not a valid Quire database: ${report.problem}`);
  if (!report.tables.includes(QUIRE_TABLE)) {
    throw new BackupError(`${file} is not a Quire database (it has no ${QUIRE_TABLE} table)`);
  }
}

function databaseStem(dbFile: string): string {
  const name = basename(dbFile);
  return name.slice(0, name.length - extname(name).length) || name;
}

function backupPattern(dbFile: string): RegExp {
  const stem = databaseStem(dbFile).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${stem}-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z(?:-[a-z-]+)?\\.sqlite$`);
}
