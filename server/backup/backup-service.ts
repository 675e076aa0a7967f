import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { MediaFile } from '../media/media-files.js';
import { isRunning } from '../process/running-process.js';
import { readBackupSource, verifyBackupMedia, writeManifest } from './backup-folder.js';

/**
 * Backups of a Quire site, whichever engine: verified backup folders (see backup-folder.ts) at a
 * place (for a SQLite file, `backups/` beside it), the newest KEEP_BACKUPS kept, taken by the
 * running server at start and then daily (`BackupSchedule`) and by `quire backup`. Each engine
 * fills the folder its way through `writeBackupFolder`: sqlite-backup.ts copies the file,
 * postgres-backup.ts copies the site into a SQLite database; sqlite-restore.ts and
 * postgres-backup.ts restore them.
 */

/** How many backups are kept; older ones are deleted after each successful backup. */
export const KEEP_BACKUPS = 10;
/** Time between the running server's backups. */
export const BACKUP_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** A backup or restore that cannot be done; its message is the one line a user reads. */
export class BackupError extends Error {}

/** Options shared by the backup functions. */
export interface BackupOptions {
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
 * Name of a backup folder: `<stem>-<UTC timestamp>[-label]`, e.g.
 * `content-2026-03-01T09-30-00-000Z`, so sorting names sorts by time.
 */
export function backupName(stem: string, at: Date, label?: string): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  return `${stem}-${stamp}${label ? `-${label}` : ''}`;
}

/**
 * Where a database's backups go: a folder, and the stem every backup name there starts with (the
 * database's name), so that two databases' backups can share a folder without pruning each other's.
 */
export interface BackupPlace {
  dir: string;
  stem: string;
}

/** The backups of a database file: `backups/` beside it, named after the file. */
export function sqliteBackupPlace(dbFile: string): BackupPlace {
  return { dir: backupDir(dbFile), stem: databaseStem(dbFile) };
}

/** The backups of a database, oldest first: folders, and the database-only files of older versions. */
export function listBackups(dbFile: string | BackupPlace): string[] {
  const place = typeof dbFile === 'string' ? sqliteBackupPlace(dbFile) : dbFile;
  if (!existsSync(place.dir)) return [];
  const pattern = backupPattern(place.stem);
  return readdirSync(place.dir)
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => join(place.dir, name));
}

/**
 * Writes a new backup folder at `place`: `fill` writes the database copy and the media into the
 * (partial) folder and returns the media files it placed; then the manifest is written, the media
 * checked against it, the folder given its final name, and the backups beyond `keep` deleted. A
 * backup that fails is deleted and nothing is pruned.
 */
export async function writeBackupFolder(
  place: BackupPlace,
  options: { keep?: number; now?: Date; label?: string },
  fill: (partial: string) => Promise<MediaFile[]>,
): Promise<string> {
  const at = options.now ?? new Date();
  const target = join(place.dir, backupName(place.stem, at, options.label));
  // Named with this process's id: another server backing up the same site into the same folder (a
  // team on one PostgreSQL) leaves it alone at its start (`removeUnfinishedBackups`).
  const partial = `${target}.${process.pid}.partial`;
  try {
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    const media = await fill(partial);
    await writeManifest(partial, at, media);
    const problem = await verifyBackupMedia(readBackupSource(partial));
    if (problem) throw new BackupError(`The backup ${target} failed verification: ${problem}`);
    await rename(partial, target);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  pruneBackups(place, options.keep ?? KEEP_BACKUPS);
  return target;
}

/** Deletes all but the newest `keep` backups. */
export function pruneBackups(dbFile: string | BackupPlace, keep: number): void {
  const backups = listBackups(dbFile);
  for (const old of backups.slice(0, Math.max(0, backups.length - keep))) {
    rmSync(old, { recursive: true, force: true });
  }
}

/**
 * Deletes partial backups left by a backup that a crash or kill interrupted: those of a process
 * that is not running (or named without a process id), never another running server's
 * backup in progress.
 */
export function removeUnfinishedBackups(dbFile: string | BackupPlace): void {
  const { dir, stem } = typeof dbFile === 'string' ? sqliteBackupPlace(dbFile) : dbFile;
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const unfinished = /(?:\.(\d+))?\.partial(?:-journal)?$/.exec(name);
    if (!name.startsWith(`${stem}-`) || !unfinished) continue;
    const owner = unfinished[1] === undefined ? null : Number(unfinished[1]);
    if (owner !== null && owner !== process.pid && isRunning(owner)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** Options of the running server's backups. */
export interface BackupScheduleOptions {
  /** The backup it takes. */
  job: BackupJob;
  /** Time between backups (default BACKUP_INTERVAL_MS). */
  intervalMs?: number;
  /** Where a failed backup is reported; the server keeps running. */
  log: (message: string, error: unknown) => void;
}

/** What the schedule runs: a backup of one database, wherever its backups go. */
export interface BackupJob {
  /** The database, for the message of a failed backup (never credentials). */
  what: string;
  /** Where its backups go (partial ones left by a crash are removed there at start). */
  place: BackupPlace;
  /** Takes one backup; resolves to its folder. */
  take(): Promise<string>;
}

/** The running server's backups: one when it starts, then one per interval; one at a time. */
export class BackupSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<string | null> = Promise.resolve(null);
  private stopped = false;

  private readonly job: BackupJob;

  constructor(private readonly options: BackupScheduleOptions) {
    this.job = options.job;
  }

  /** Where the backups go. */
  get place(): BackupPlace {
    return this.job.place;
  }

  /** Takes the start-up backup (in the background) and schedules the next ones. */
  start(): void {
    removeUnfinishedBackups(this.job.place);
    void this.runNow();
    this.timer = setInterval(() => void this.runNow(), this.options.intervalMs ?? BACKUP_INTERVAL_MS);
    this.timer.unref();
  }

  /** Takes a backup after any one in progress; resolves to its path, or null if it failed. */
  runNow(): Promise<string | null> {
    this.running = this.running.then(async () => {
      if (this.stopped) return null;
      try {
        return await this.job.take();
      } catch (error) {
        this.options.log(`Backup of ${this.job.what} failed`, error);
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

function databaseStem(dbFile: string): string {
  const name = basename(dbFile);
  return name.slice(0, name.length - extname(name).length) || name;
}

function backupPattern(stem: string): RegExp {
  const escaped = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z(?:-[a-z-]+)?(?:\\.sqlite)?$`);
}
