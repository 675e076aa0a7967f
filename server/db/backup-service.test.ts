import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnServer } from '../test-support/child-server.js';
import { startTestServer } from '../test-support/test-server.js';
import {
  BackupError,
  BackupSchedule,
  backupDatabase,
  backupDir,
  backupFile,
  KEEP_BACKUPS,
  listBackups,
  restoreDatabase,
} from './backup-service.js';
import { openDatabase, type QuireDb } from './database.js';

let dir: string;
let dbFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-backup-'));
  dbFile = join(dir, 'content.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Adds a news row straight in SQLite. */
function addNews(database: QuireDb | Database.Database, id: string): void {
  const raw = 'raw' in database ? database.raw : database;
  raw
    .prepare(
      `insert into news (id, title, slug, status, published_at, meta, created_at, updated_at, created_by, updated_by)
       values (?, ?, ?, 'draft', '2025-01-01 10:00:00', null, '2025-01-01 10:00:00.000000', '2025-01-01 10:00:00.000000', null, null)`,
    )
    .run(id, `Title ${id}`, `slug-${id}`);
}

function newsIds(file: string): string[] {
  const raw = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return raw.prepare('select id from news order by id').pluck().all() as string[];
  } finally {
    raw.close();
  }
}

describe('backupDatabase', () => {
  it('writes a verified, self-contained copy into backups/ beside the database', async () => {
    const database = await openDatabase(dbFile);
    addNews(database, 'a');
    addNews(database, 'b');
    const backup = await backupDatabase(database.raw, dbFile, { now: new Date('2026-03-01T09:30:00.000Z') });
    await database.close();

    expect(backup).toBe(join(dir, 'backups', 'content-2026-03-01T09-30-00-000Z.sqlite'));
    expect(newsIds(backup)).toEqual(['a', 'b']);
    const copy = new Database(backup, { readonly: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    expect(readdirSync(backupDir(dbFile)).sort()).toEqual([basename(backup)]);
  });

  it(`keeps the newest ${KEEP_BACKUPS} backups and deletes older ones`, async () => {
    const database = await openDatabase(dbFile);
    for (let day = 1; day <= KEEP_BACKUPS + 2; day++) {
      await backupDatabase(database.raw, dbFile, { now: new Date(Date.UTC(2026, 0, day)) });
    }
    await database.close();
    const kept = listBackups(dbFile).map((file) => basename(file));
    expect(kept).toHaveLength(KEEP_BACKUPS);
    expect(kept[0]).toBe('content-2026-01-03T00-00-00-000Z.sqlite');
    expect(kept.at(-1)).toBe(`content-2026-01-${String(KEEP_BACKUPS + 2).padStart(2, '0')}T00-00-00-000Z.sqlite`);
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
    const copy = new Database(backup, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
  });
});

describe('the running server', () => {
  it('backs up when it starts and then on its schedule, and stops backing up when closed', async () => {
    mkdirSync(backupDir(dbFile), { recursive: true });
    const leftover = join(backupDir(dbFile), 'content-2026-01-01T00-00-00-000Z.sqlite.partial');
    writeFileSync(leftover, 'cut off by a crash');
    const server = await startTestServer({ dir, dbFile, backups: { intervalMs: 150 } });
    try {
      expect(existsSync(leftover)).toBe(false);
      const first = await server.backups?.runNow();
      expect(first).toMatch(/content-.*Z\.sqlite$/);
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
    const schedule = new BackupSchedule(database.raw, dbFile, { log: (_m, error) => failures.push(error) });
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

describe('restoreDatabase (quire restore)', () => {
  async function databaseWithBackup(): Promise<string> {
    const database = await openDatabase(dbFile);
    addNews(database, 'old');
    const backup = await backupDatabase(database.raw, dbFile, { now: new Date('2026-01-01T00:00:00Z') });
    addNews(database, 'new');
    await database.close();
    return backup;
  }

  it('replaces the database with the backup and keeps the replaced one as a backup first', async () => {
    const backup = await databaseWithBackup();
    const { previous } = await restoreDatabase(backup, dbFile);
    expect(newsIds(dbFile)).toEqual(['old']);
    expect(previous).toMatch(/-before-restore\.sqlite$/);
    expect(newsIds(previous as string)).toEqual(['new', 'old']);
    const reopened = await openDatabase(dbFile);
    expect(reopened.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    await reopened.close();
  });

  it('restores into a place that has no database yet', async () => {
    const backup = await databaseWithBackup();
    const elsewhere = join(dir, 'fresh', 'content.sqlite');
    expect((await restoreDatabase(backup, elsewhere)).previous).toBeNull();
    expect(newsIds(elsewhere)).toEqual(['old']);
  });

  it('refuses a file that is not SQLite, or SQLite but not Quire, and changes nothing', async () => {
    await databaseWithBackup();
    const junk = join(dir, 'junk.sqlite');
    writeFileSync(junk, 'definitely not sqlite'.repeat(100));
    await expect(restoreDatabase(junk, dbFile)).rejects.toThrow(BackupError);
    const other = join(dir, 'other.sqlite');
    const raw = new Database(other);
    raw.exec('create table things (x)');
    raw.close();
    await expect(restoreDatabase(other, dbFile)).rejects.toThrow(/not a Quire database/);
    await expect(restoreDatabase(dbFile, dbFile)).rejects.toThrow(/is the database itself/);
    expect(newsIds(dbFile)).toEqual(['new', 'old']);
  });

  it('refuses while a server in this process has the database open', async () => {
    const backup = await databaseWithBackup();
    const server = await startTestServer({ dir, dbFile });
    try {
      await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(/open in a running Quire server/);
    } finally {
      await server.stop();
    }
    expect(newsIds(dbFile)).toEqual(['new', 'old']);
  });

  it('refuses while a server process has it open, and after that process is killed, restores and keeps its last writes', async () => {
    const backup = await databaseWithBackup();
    const server = await spawnServer(dbFile);
    try {
      const created = await fetch(`${server.api}/cms/news/acknowledged`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'title=Acknowledged&status=draft&published_at=2025-01-01%2010:00:00',
      });
      expect(created.status).toBe(201);
      await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(/open in a running Quire server/);
    } finally {
      await server.kill('SIGKILL');
    }
    // The killed server left its last write in the -wal file; the pre-restore backup has it.
    const { previous } = await restoreDatabase(backup, dbFile);
    expect(newsIds(previous as string)).toEqual(['acknowledged', 'new', 'old']);
    expect(newsIds(dbFile)).toEqual(['old']);
    expect(existsSync(`${dbFile}-wal`)).toBe(false);
  });
});
