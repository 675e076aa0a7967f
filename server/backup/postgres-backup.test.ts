// Engine: both in one run: a backup restored into a PostgreSQL database of its own and into a SQLite file, compared
// through the API.

import { existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli-commands.js';
import { postgresBackupPlace } from '../db/postgres/postgres-backup.js';
import { describeTarget } from '../db/postgres/postgres-url.js';
import { startServer } from '../server.js';
import { createTestDatabase, postgresForTests, skipNote, type TestDatabase } from '../test-support/postgres.js';
import { startPostgresTestServer } from '../test-support/postgres-server.js';
import { api, buildSite, siteThroughApi } from '../test-support/site-fixture.js';
import { BACKUP_DATABASE, BACKUP_MANIFEST, BACKUP_MEDIA } from './backup-folder.js';
import { listBackups } from './backup-service.js';

/**
 * `quire backup` and `quire restore` on PostgreSQL: a backup folder in SQLite's own
 * format, restored into a fresh PostgreSQL database and into a SQLite file, compared through the
 * API; scheduled backups of a PostgreSQL server.
 */

const postgres = await postgresForTests();
const SECRET = 'Sekr3tPassw0rd';

/** What `/api/starters` says of the first run's choice: which set, by whom, when. */
function choiceOf(body: { choice: unknown; chosen_by: unknown; chosen_at: unknown }): Record<string, unknown> {
  return { choice: body.choice, chosen_by: body.chosen_by, chosen_at: body.chosen_at };
}

describe.skipIf(!postgres.available)(`quire backup and restore on PostgreSQL${skipNote(postgres)}`, () => {
  let source: TestDatabase;
  let target: TestDatabase;
  let dir: string;
  let uploads: string[];
  let before: Awaited<ReturnType<typeof siteThroughApi>>;
  /** The first run's choice as the source records it (`/api/starters`). */
  let starterChoice: Record<string, unknown>;
  let backup: string;
  let out: string[];
  let err: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-pg-backup-'));
    source = await createTestDatabase(postgres.url);
    target = await createTestDatabase(postgres.url);
    const server = await startPostgresTestServer(source.target);
    try {
      uploads = await buildSite(server.origin);
      before = await siteThroughApi(server.origin, uploads);
      const chosen = await api(server.origin, 'POST', '/starters', { set: 'keep' });
      expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
      starterChoice = choiceOf(chosen.body);
    } finally {
      await server.close();
    }
    expect(before.rows.every_type).toHaveLength(2);
    expect(before.media).toHaveLength(2);
  });
  afterAll(async () => {
    await source?.drop();
    await target?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    out = [];
    err = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
    vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('backs up the whole site into a verified backup folder, in the format SQLite backups have', async () => {
    expect(await main(['backup', '--database', source.url, '--backup-dir', join(dir, 'backups')], {})).toBe(0);
    expect(err).toEqual([]);
    const place = postgresBackupPlace(source.target, join(dir, 'backups'));
    [backup] = listBackups(place);
    expect(out).toEqual([`Backed up ${describeTarget(source.target)} and its uploads to ${backup}`]);
    expect(readdirSync(backup).sort()).toEqual([BACKUP_DATABASE, BACKUP_MANIFEST, BACKUP_MEDIA]);
    const manifest = JSON.parse(readFileSync(join(backup, BACKUP_MANIFEST), 'utf8'));
    expect(manifest.media.map((file: { path: string }) => `/media/${file.path}`).sort()).toEqual([...uploads].sort());
  });

  it('without --backup-dir, backs up into backups/ of the app-data folder the given environment names', async () => {
    const profile = join(dir, 'profile');
    expect(await main(['backup', '--database', source.url], { QUIRE_USER_DATA_DIR: profile })).toBe(0);
    expect(err).toEqual([]);
    const [taken] = listBackups(postgresBackupPlace(source.target, join(profile, 'backups')));
    expect(out).toEqual([`Backed up ${describeTarget(source.target)} and its uploads to ${taken}`]);
  });

  it('restores the backup into an empty PostgreSQL database: the same site through the API', async () => {
    const code = await main(['restore', backup, '--database', target.url, '--backup-dir', join(dir, 'backups')], {});
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out[0]).toMatch(
      new RegExp(
        `^Restored \\d+ content types, 5 rows and 2 uploads from ${backup} into \\S+/${target.name}; counts checked$`,
      ),
    );
    const server = await startPostgresTestServer(target.target);
    try {
      expect(await siteThroughApi(server.origin, uploads)).toEqual(before);
      expect(starterChoice).toMatchObject({ choice: 'keep' });
      expect(choiceOf((await api(server.origin, 'GET', '/starters')).body)).toEqual(starterChoice);
      // The restored database's audit log records the restore, after the source's own events.
      const restores = await api(server.origin, 'GET', '/audit?action=backup.restored');
      expect(restores.body.events).toEqual([
        expect.objectContaining({
          actor: 'cli',
          address: null,
          target: backup,
          detail: expect.objectContaining({ engine: 'postgres', rows: 5 }),
        }),
      ]);
      // Search reaches the restored rows: they were indexed the engine's way.
      const found = await api(server.origin, 'GET', `/cms/every_type?filter=${encodeURIComponent('search=ärger')}`);
      expect(found.body.rows).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('restores the same backup into a SQLite file with --db: the same site through the API', async () => {
    const file = join(dir, 'site', 'content.sqlite');
    expect(await main(['restore', backup, '--db', file], {})).toBe(0);
    expect(err).toEqual([]);
    expect(out[0]).toBe(`Restored ${file} and 2 media files from ${backup}`);
    const server = await startServer({
      dbFile: file,
      port: 0,
      host: '127.0.0.1',
      editorName: 'tester',
      backups: false,
    });
    try {
      expect(await siteThroughApi(server.origin, uploads)).toEqual(before);
      expect(choiceOf((await api(server.origin, 'GET', '/starters')).body)).toEqual(starterChoice);
    } finally {
      await server.close();
    }
  });

  it('refuses a database with content unless --force, which backs that content up first', async () => {
    const backups = join(dir, 'backups');
    expect(await main(['restore', backup, '--database', target.url, '--backup-dir', backups], {})).toBe(1);
    expect(err).toEqual([
      expect.stringMatching(/^quire: the database is not empty \(.*\); pass --force to replace its content$/),
    ]);
    expect(await main(['restore', backup, '--database', target.url, '--backup-dir', backups, '--force'], {})).toBe(0);
    const kept = out[0].match(/; the content it replaced was kept in (\S+-before-restore)$/);
    expect(kept, out[0]).not.toBeNull();
    expect(existsSync(join(String(kept?.[1]), BACKUP_DATABASE))).toBe(true);
    const server = await startPostgresTestServer(target.target);
    try {
      expect(await siteThroughApi(server.origin, uploads)).toEqual(before);
    } finally {
      await server.close();
    }
  });

  it('restores a backup a SQLite server took into PostgreSQL', async () => {
    const file = join(dir, 'laptop', 'content.sqlite');
    const laptop = await startServer({
      dbFile: file,
      port: 0,
      host: '127.0.0.1',
      editorName: 'tester',
      backups: false,
    });
    let fromLaptop: Awaited<ReturnType<typeof siteThroughApi>>;
    let laptopUploads: string[];
    try {
      laptopUploads = await buildSite(laptop.origin);
      fromLaptop = await siteThroughApi(laptop.origin, laptopUploads);
    } finally {
      await laptop.close();
    }
    expect(await main(['backup', '--db', file], {})).toBe(0);
    const [sqliteBackup] = listBackups(file);
    const code = await main(
      ['restore', sqliteBackup, '--database', target.url, '--force', '--backup-dir', join(dir, 'backups')],
      {},
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const server = await startPostgresTestServer(target.target);
    try {
      expect(await siteThroughApi(server.origin, laptopUploads)).toEqual(fromLaptop);
    } finally {
      await server.close();
    }
  });

  it('refuses an incomplete backup before changing anything', async () => {
    const broken = join(dir, 'broken');
    await main(['backup', '--database', source.url, '--backup-dir', broken], {});
    const [folder] = listBackups(postgresBackupPlace(source.target, broken));
    rmSync(join(folder, BACKUP_MEDIA, uploads[0].replace('/media/', '')));
    err = [];
    const code = await main(['restore', folder, '--database', target.url, '--backup-dir', broken, '--force'], {});
    expect(code).toBe(1);
    expect(err).toEqual([
      expect.stringMatching(/cannot be restored: the backup is incomplete \(.*\); nothing was changed$/),
    ]);
    expect(listBackups(postgresBackupPlace(target.target, broken))).toEqual([]);
  });

  it('refuses a backup whose upload is a symlink (to any local file) before changing anything', async () => {
    const hostile = join(dir, 'hostile');
    await main(['backup', '--database', source.url, '--backup-dir', hostile], {});
    const [folder] = listBackups(postgresBackupPlace(source.target, hostile));
    const path = uploads[0].replace('/media/', '');
    const stored = join(folder, BACKUP_MEDIA, path);
    // The size the manifest lists, so only the link gives it away.
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 's'.repeat(statSync(stored).size));
    rmSync(stored);
    symlinkSync(secret, stored);
    err = [];
    const code = await main(['restore', folder, '--database', target.url, '--backup-dir', hostile, '--force'], {});
    expect(code).toBe(1);
    expect(err).toEqual([
      `quire: ${folder} cannot be restored: media/${path} is a symbolic link, which Quire never stores; nothing was changed`,
    ]);
    expect(listBackups(postgresBackupPlace(target.target, hostile))).toEqual([]);
  });

  it('a PostgreSQL server takes scheduled backups into --backup-dir', async () => {
    const scheduled = join(dir, 'scheduled');
    const server = await startPostgresTestServer(source.target, { backups: { dir: scheduled } });
    try {
      const taken = await server.backups?.runNow();
      expect(server.errors).toEqual([]);
      const place = postgresBackupPlace(source.target, scheduled);
      expect(taken).toBe(listBackups(place).at(-1));
      // The start-up backup and this one.
      expect(listBackups(place)).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('says in one line, without the password, that an unreachable database cannot be backed up', async () => {
    const url = `postgres://quire:${SECRET}@127.0.0.1:1/site?connect_timeout=2`;
    expect(await main(['backup', '--database', url, '--backup-dir', join(dir, 'none')], {})).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^quire: .*127\.0\.0\.1:1.*$/)]);
    expect(err.join('')).not.toContain(SECRET);
  });
});
