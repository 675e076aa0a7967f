// Engine: SQLite only: backups and restores of the SQLite file itself; PostgreSQL's backup, restore and import are
// server/backup/postgres-backup.test.ts and server/import/import-postgres.test.ts.

import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../db/database.js';
import { backupDatabase } from '../db/sqlite/sqlite-backup.js';
import { restoreDatabase } from '../db/sqlite/sqlite-restore.js';
import { snapshotFolder } from '../db/sqlite/sqlite-search-snapshot.js';
import { spawnServer } from '../test-support/child-server.js';
import { startTestServer } from '../test-support/test-server.js';
import { BACKUP_DATABASE } from './backup-folder.js';
import { BackupError, KEEP_BACKUPS, listBackups } from './backup-service.js';

let dir: string;
let dbFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-restore-'));
  dbFile = join(dir, 'content.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function addNews(database: SqliteQuireDb, id: string): void {
  database.raw
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

/** Writes a media file under a generated name beside the database; returns its path under media/. */
function storeMedia(content: string): string {
  const path = `2026/03/${uuidv7()}.png`;
  mkdirSync(join(dir, 'media', '2026', '03'), { recursive: true });
  writeFileSync(join(dir, 'media', path), content);
  return path;
}

/** A database with news `old` and one media file, its backup, then news `new` and another file. */
async function databaseWithBackup() {
  const oldImage = storeMedia('old image');
  const database = await openDatabase(dbFile);
  addNews(database, 'old');
  const backup = await backupDatabase(database.raw, dbFile, { now: new Date('2026-01-01T00:00:00Z') });
  addNews(database, 'new');
  await database.close();
  const newImage = storeMedia('new image');
  return { backup, oldImage, newImage };
}

describe('restoreDatabase (quire restore)', () => {
  it('replaces the database and media with the backup and keeps the replaced ones as a backup first', async () => {
    const { backup, oldImage, newImage } = await databaseWithBackup();
    // The replaced database's saved search index goes with it.
    mkdirSync(snapshotFolder(dbFile));
    writeFileSync(join(snapshotFolder(dbFile), '6e657773.bin'), 'an index of the replaced rows');
    const { previous, mediaFiles } = await restoreDatabase(backup, dbFile);
    expect(existsSync(snapshotFolder(dbFile))).toBe(false);
    expect(newsIds(dbFile)).toEqual(['old']);
    expect(mediaFiles).toBe(1);
    expect(readFileSync(join(dir, 'media', oldImage), 'utf8')).toBe('old image');
    expect(existsSync(join(dir, 'media', newImage))).toBe(false);

    expect(previous).toMatch(/-before-restore$/);
    expect(newsIds(join(previous as string, BACKUP_DATABASE))).toEqual(['new', 'old']);
    expect(readFileSync(join(previous as string, 'media', newImage), 'utf8')).toBe('new image');
    const reopened = await openDatabase(dbFile);
    expect(reopened.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    await reopened.close();
  });

  it('undoes itself: restoring the before-restore backup brings back the database and media', async () => {
    const { backup, newImage } = await databaseWithBackup();
    const { previous } = await restoreDatabase(backup, dbFile);
    await restoreDatabase(previous as string, dbFile);
    expect(newsIds(dbFile)).toEqual(['new', 'old']);
    expect(readFileSync(join(dir, 'media', newImage), 'utf8')).toBe('new image');
  });

  it('restores the oldest kept backup, which the before-restore backup prunes on the way', async () => {
    const { backup, oldImage } = await databaseWithBackup();
    const database = await openDatabase(dbFile);
    for (let day = 2; day <= KEEP_BACKUPS; day++) {
      await backupDatabase(database.raw, dbFile, { now: new Date(Date.UTC(2026, 0, day)) });
    }
    await database.close();
    expect(listBackups(dbFile)[0]).toBe(backup);

    expect((await restoreDatabase(backup, dbFile)).mediaFiles).toBe(1);
    expect(existsSync(backup)).toBe(false);
    expect(newsIds(dbFile)).toEqual(['old']);
    expect(readFileSync(join(dir, 'media', oldImage), 'utf8')).toBe('old image');
  });

  it('accepts the database file inside a backup folder as the folder', async () => {
    const { backup, newImage } = await databaseWithBackup();
    expect((await restoreDatabase(join(backup, BACKUP_DATABASE), dbFile)).mediaFiles).toBe(1);
    expect(existsSync(join(dir, 'media', newImage))).toBe(false);
  });

  it('restores a database-only backup of an older version, leaving media as they are', async () => {
    const { backup, newImage } = await databaseWithBackup();
    const older = join(dir, 'backups', 'content-2025-12-01T00-00-00-000Z.sqlite');
    copyFileSync(join(backup, BACKUP_DATABASE), older);
    const { mediaFiles } = await restoreDatabase(older, dbFile);
    expect(mediaFiles).toBeNull();
    expect(newsIds(dbFile)).toEqual(['old']);
    expect(readFileSync(join(dir, 'media', newImage), 'utf8')).toBe('new image');
  });

  it('restores into a place that has no database yet', async () => {
    const { backup, oldImage } = await databaseWithBackup();
    const elsewhere = join(dir, 'fresh', 'content.sqlite');
    expect((await restoreDatabase(backup, elsewhere)).previous).toBeNull();
    expect(newsIds(elsewhere)).toEqual(['old']);
    expect(readFileSync(join(dir, 'fresh', 'media', oldImage), 'utf8')).toBe('old image');
  });

  it('refuses a backup whose media are incomplete, and changes nothing', async () => {
    const { backup, oldImage, newImage } = await databaseWithBackup();
    rmSync(join(backup, 'media', oldImage));
    await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(
      `${backup} cannot be restored: the backup is incomplete (media/${oldImage} is missing); nothing was changed`,
    );
    expect(newsIds(dbFile)).toEqual(['new', 'old']);
    expect(existsSync(join(dir, 'media', newImage))).toBe(true);
    expect(listBackups(dbFile)).toEqual([backup]);
  });

  it('refuses a manifest that names a file outside the media folder', async () => {
    const { backup } = await databaseWithBackup();
    const manifest = JSON.parse(readFileSync(join(backup, 'manifest.json'), 'utf8'));
    manifest.media.push({ path: '../../content.sqlite', size: 1 });
    writeFileSync(join(backup, 'manifest.json'), JSON.stringify(manifest));
    await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(`${backup} has a malformed manifest.json`);
    expect(newsIds(dbFile)).toEqual(['new', 'old']);
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
    const { backup } = await databaseWithBackup();
    const server = await startTestServer({ dir, dbFile });
    try {
      await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(/open in a running Quire server/);
    } finally {
      await server.stop();
    }
    expect(newsIds(dbFile)).toEqual(['new', 'old']);
    expect(existsSync(`${dbFile}.restoring`)).toBe(false);
    expect(existsSync(join(dir, 'media.restoring'))).toBe(false);
  });

  it('refuses while a server process has it open, and after that process is killed, restores and keeps its last writes', async () => {
    const { backup } = await databaseWithBackup();
    const server = await spawnServer(dbFile, [], 'built');
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
    expect(newsIds(join(previous as string, BACKUP_DATABASE))).toEqual(['acknowledged', 'new', 'old']);
    expect(newsIds(dbFile)).toEqual(['old']);
    expect(existsSync(`${dbFile}-wal`)).toBe(false);
  });
});

describe('restoreDatabase refuses a backup whose media would read other files', () => {
  const secret = 'the contents of a private file';

  /** A backup whose copy of its one image is replaced by what `plant` makes; the manifest says the secret's size. */
  async function hostileBackup(plant: (backup: string, image: string, outside: string) => void, size = secret.length) {
    const { backup, oldImage, newImage } = await databaseWithBackup();
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), secret);
    rmSync(join(backup, 'media', oldImage));
    plant(backup, oldImage, outside);
    const manifest = JSON.parse(readFileSync(join(backup, 'manifest.json'), 'utf8'));
    manifest.media = [{ path: oldImage, size }];
    writeFileSync(join(backup, 'manifest.json'), JSON.stringify(manifest));
    return { backup, oldImage, newImage };
  }

  /** Nothing changed: the database, the media folder (no secret in it) and no staging left behind. */
  function expectUnchanged(newImage: string, oldImage: string) {
    expect(newsIds(dbFile)).toEqual(['new', 'old']);
    expect(readFileSync(join(dir, 'media', newImage), 'utf8')).toBe('new image');
    expect(readFileSync(join(dir, 'media', oldImage), 'utf8')).toBe('old image');
    expect(existsSync(join(dir, 'media.restoring'))).toBe(false);
    expect(existsSync(`${dbFile}.restoring`)).toBe(false);
  }

  it('refuses a symlink in media/ to a file elsewhere', async () => {
    const { backup, oldImage, newImage } = await hostileBackup((folder, image, outside) =>
      symlinkSync(join(outside, 'secret.txt'), join(folder, 'media', image)),
    );
    await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(
      `${backup} cannot be restored: media/${oldImage} is a symbolic link, which Quire never stores; nothing was changed`,
    );
    expectUnchanged(newImage, oldImage);
  });

  it('refuses a media/ folder that is itself a symlink, or a symlinked folder inside it', async () => {
    const { backup, oldImage, newImage } = await hostileBackup((folder, image, outside) => {
      mkdirSync(join(outside, '2026', '03'), { recursive: true });
      copyFileSync(join(outside, 'secret.txt'), join(outside, image));
      rmSync(join(folder, 'media'), { recursive: true });
      symlinkSync(outside, join(folder, 'media'));
    });
    await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(
      `${backup} cannot be restored: media/ is a symbolic link, which Quire never stores; nothing was changed`,
    );
    expectUnchanged(newImage, oldImage);

    rmSync(join(backup, 'media'));
    mkdirSync(join(backup, 'media'));
    symlinkSync(join(dir, 'outside', '2026'), join(backup, 'media', '2026'));
    await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(
      `${backup} cannot be restored: media/2026 is a symbolic link, which Quire never stores; nothing was changed`,
    );
    expectUnchanged(newImage, oldImage);
  });

  it('refuses a database.sqlite that is a symlink (to the database of another site, say)', async () => {
    const { backup, newImage, oldImage } = await databaseWithBackup();
    const other = join(dir, 'other-site.sqlite');
    copyFileSync(join(backup, BACKUP_DATABASE), other);
    rmSync(join(backup, BACKUP_DATABASE));
    symlinkSync(other, join(backup, BACKUP_DATABASE));
    await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(
      `${backup} cannot be restored: its database.sqlite is a symbolic link; nothing was changed`,
    );
    expectUnchanged(newImage, oldImage);
  });

  it('refuses what is not a regular file (a FIFO, which a read would wait on forever)', async () => {
    const { backup, oldImage, newImage } = await hostileBackup(
      (folder, image) => execFileSync('mkfifo', [join(folder, 'media', image)]),
      0,
    );
    await expect(restoreDatabase(backup, dbFile)).rejects.toThrow(
      `${backup} cannot be restored: media/${oldImage} is not a regular file; nothing was changed`,
    );
    expectUnchanged(newImage, oldImage);
  });

  it('refuses a symlink in a backup on another device, where the files are copied rather than linked', async () => {
    // /dev/shm is a memory file system on Linux: a backup there cannot be hard-linked into dir.
    const other = mkdtempSync(join('/dev/shm', 'quire-restore-'));
    try {
      expect(statSync(other).dev).not.toBe(statSync(dir).dev);
      const { backup, oldImage, newImage } = await hostileBackup((folder, image, outside) =>
        symlinkSync(join(outside, 'secret.txt'), join(folder, 'media', image)),
      );
      const moved = join(other, 'backup');
      cpSync(backup, moved, { recursive: true, verbatimSymlinks: true });
      await expect(restoreDatabase(moved, dbFile)).rejects.toThrow(
        `${moved} cannot be restored: media/${oldImage} is a symbolic link, which Quire never stores; nothing was changed`,
      );
      expectUnchanged(newImage, oldImage);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('restores a backup on another device by copying its files', async () => {
    const other = mkdtempSync(join('/dev/shm', 'quire-restore-'));
    try {
      const { backup, oldImage } = await databaseWithBackup();
      const moved = join(other, 'backup');
      cpSync(backup, moved, { recursive: true });
      expect((await restoreDatabase(moved, dbFile)).mediaFiles).toBe(1);
      expect(readFileSync(join(dir, 'media', oldImage), 'utf8')).toBe('old image');
      expect(statSync(join(dir, 'media', oldImage)).ino).not.toBe(statSync(join(moved, 'media', oldImage)).ino);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
