// Engine: SQLite only: backups and restores of the SQLite file itself; PostgreSQL's backup, restore and import are
// server/backup/postgres-backup.test.ts and server/import/import-postgres.test.ts.

import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../db/database.js';
import { backupDatabase, backupFile, sqliteBackupJob } from '../db/sqlite/sqlite-backup.js';
import { startTestServer } from '../test-support/test-server.js';
import { BACKUP_DATABASE, type BackupManifest } from './backup-folder.js';
import { BackupSchedule, backupDir, KEEP_BACKUPS, listBackups } from './backup-service.js';

let dir: string;
let dbFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-backup-'));
  dbFile = join(dir, 'content.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Adds a news row straight in SQLite. */
function addNews(database: SqliteQuireDb | Database.Database, id: string): void {
  const raw = 'raw' in database ? database.raw : database;
  raw
    .prepare(
      `insert into news (id, title, slug, status, published_at, meta, created_at, updated_at, created_by, updated_by)
       values (?, ?, ?, 'draft', '2025-01-01 10:00:00', null, '2025-01-01 10:00:00.000000', '2025-01-01 10:00:00.000000', null, null)`,
    )
    .run(id, `Title ${id}`, `slug-${id}`);
}

/** The news ids of a database file, or of the database in a backup folder. */
function newsIds(file: string): string[] {
  const database = existsSync(file) && statSync(file).isDirectory() ? join(file, BACKUP_DATABASE) : file;
  const raw = new Database(database, { readonly: true, fileMustExist: true });
  try {
    return raw.prepare('select id from news order by id').pluck().all() as string[];
  } finally {
    raw.close();
  }
}

describe('backupDatabase', () => {
  it('writes a verified, self-contained copy of the database into a backup folder beside it', async () => {
    const database = await openDatabase(dbFile);
    addNews(database, 'a');
    addNews(database, 'b');
    const backup = await backupDatabase(database.raw, dbFile, { now: new Date('2026-03-01T09:30:00.000Z') });
    await database.close();

    expect(backup).toBe(join(dir, 'backups', 'content-2026-03-01T09-30-00-000Z'));
    expect(newsIds(backup)).toEqual(['a', 'b']);
    const copy = new Database(join(backup, BACKUP_DATABASE), { readonly: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    expect(readdirSync(backupDir(dbFile)).sort()).toEqual([basename(backup)]);
    expect(readdirSync(backup).sort()).toEqual([BACKUP_DATABASE, 'manifest.json', 'media']);
  });

  it('includes every stored media file, hard-linked, and lists them in its manifest; nothing else from media/', async () => {
    const media = join(dir, 'media');
    const stored = [`2026/02/${uuidv7()}.png`, `2026/03/${uuidv7()}.jpg`];
    for (const [i, path] of stored.entries()) {
      mkdirSync(join(media, path, '..'), { recursive: true });
      writeFileSync(join(media, path), `image ${i}`.repeat(i + 1));
    }
    // Not media: an upload being received, a stray file, a name the server never makes.
    mkdirSync(join(media, '.incoming'));
    writeFileSync(join(media, '.incoming', 'x.part'), 'partial');
    writeFileSync(join(media, 'notes.txt'), 'stray');
    writeFileSync(join(media, '2026', '03', 'holiday.png'), 'made up');

    const database = await openDatabase(dbFile);
    const backup = await backupDatabase(database.raw, dbFile, { now: new Date('2026-03-02T00:00:00.000Z') });
    await database.close();

    const manifest = JSON.parse(readFileSync(join(backup, 'manifest.json'), 'utf8')) as BackupManifest;
    expect(manifest).toEqual({
      format: 'quire-backup',
      version: 1,
      created_at: '2026-03-02T00:00:00.000Z',
      database: BACKUP_DATABASE,
      media: stored.map((path, i) => ({ path, size: `image ${i}`.repeat(i + 1).length })),
    });
    const copied = readdirSync(join(backup, 'media'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    expect(copied.sort()).toEqual(stored.map((path) => basename(path)).sort());
    for (const path of stored) {
      expect(statSync(join(backup, 'media', path)).ino).toBe(statSync(join(media, path)).ino);
    }
  });

  it(`keeps the newest ${KEEP_BACKUPS} backups and deletes older ones, database-only files of older versions too`, async () => {
    mkdirSync(backupDir(dbFile));
    const older = join(backupDir(dbFile), 'content-2025-12-31T00-00-00-000Z.sqlite');
    writeFileSync(older, 'a backup file of an older version');
    const database = await openDatabase(dbFile);
    for (let day = 1; day <= KEEP_BACKUPS + 2; day++) {
      await backupDatabase(database.raw, dbFile, { now: new Date(Date.UTC(2026, 0, day)) });
    }
    await database.close();
    const kept = listBackups(dbFile).map((file) => basename(file));
    expect(kept).toHaveLength(KEEP_BACKUPS);
    expect(existsSync(older)).toBe(false);
    expect(kept[0]).toBe('content-2026-01-03T00-00-00-000Z');
    expect(kept.at(-1)).toBe(`content-2026-01-${String(KEEP_BACKUPS + 2).padStart(2, '0')}T00-00-00-000Z`);
  });

  it('copies a consistent database while writes go on during the backup', async () => {
    const database = await openDatabase(dbFile);
    database.raw.transaction(() => {
      for (let i = 0; i < 2000; i++) addNews(database, `before-${i}`);
    })();
    const running = backupDatabase(database.raw, dbFile);
    for (let i = 0; i < 50; i++) {
      addNews(database, `during-${i}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const backup = await running;
    await database.close();
    const ids = newsIds(backup);
    expect(ids.filter((id) => id.startsWith('before-'))).toHaveLength(2000);
    const copy = new Database(join(backup, BACKUP_DATABASE), { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
  });
});

describe('the running server', () => {
  it('backs up when it starts and then on its schedule, and stops backing up when closed', async () => {
    mkdirSync(backupDir(dbFile), { recursive: true });
    const leftover = join(backupDir(dbFile), 'content-2026-01-01T00-00-00-000Z.partial');
    mkdirSync(leftover);
    writeFileSync(join(leftover, BACKUP_DATABASE), 'cut off by a crash');
    // One of a process that has ended, and one of a running process (another server backing up
    // into the same folder), which is left alone.
    const ended = spawnSync(process.execPath, ['-e', '0']).pid;
    const endedLeftover = join(backupDir(dbFile), `content-2026-01-01T00-00-01-000Z.${ended}.partial`);
    mkdirSync(endedLeftover);
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    const inProgress = join(backupDir(dbFile), `content-2026-01-01T00-00-02-000Z.${running.pid}.partial`);
    mkdirSync(inProgress);
    const server = await startTestServer({ dir, dbFile, backups: { intervalMs: 150 } });
    try {
      expect(existsSync(leftover)).toBe(false);
      expect(existsSync(endedLeftover)).toBe(false);
      expect(existsSync(inProgress)).toBe(true);
      running.kill();
      const first = await server.backups?.runNow();
      expect(first).toMatch(/content-[-\dT]*Z$/);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(listBackups(dbFile).length).toBeGreaterThanOrEqual(3);
    } finally {
      await server.stop();
    }
    const after = listBackups(dbFile).length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(listBackups(dbFile)).toHaveLength(after);
  });

  it('reports a failed backup and keeps serving', async () => {
    writeFileSync(backupDir(dbFile), 'a file where the backups folder should be');
    const failures: unknown[] = [];
    const database = await openDatabase(dbFile);
    const schedule = new BackupSchedule({
      job: sqliteBackupJob(database.raw, dbFile),
      log: (_m, error) => failures.push(error),
    });
    expect(await schedule.runNow()).toBeNull();
    await schedule.stop();
    expect(failures).toHaveLength(1);
    addNews(database, 'still-writable');
    await database.close();
  });
});

describe('backupFile (quire backup)', () => {
  it('backs up a database file another process may be using', async () => {
    const database = await openDatabase(dbFile);
    addNews(database, 'x');
    const backup = await backupFile(dbFile);
    expect(newsIds(backup)).toEqual(['x']);
    await database.close();
  });

  it('refuses a missing file and a file that is not a Quire database', async () => {
    await expect(backupFile(join(dir, 'missing.sqlite'))).rejects.toThrow(/There is no database file/);
    writeFileSync(join(dir, 'notes.sqlite'), 'not a database at all, just text'.repeat(50));
    await expect(backupFile(join(dir, 'notes.sqlite'))).rejects.toThrow(/not a valid Quire database/);
  });
});
