// Engine: both in one run: it opens a SQLite file and a throwaway PostgreSQL database itself and
// checks what each engine's side of the seam says of itself (PostgreSQL skipped, saying why, where
// there is no server).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileMediaStore } from '../media/media-store.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { databaseLocationOf, databaseSite, openDatabaseAt, type QuireDb, requireSqlite } from './database.js';
import { PostgresMediaStore } from './postgres/postgres-media-store.js';

/**
 * The database seam (database.ts): callers never ask which engine they run on, so what differs
 * between the engines is in what each one's `QuireDb` and `DatabaseSite` say: whether other
 * servers share the database, where uploads and backups go, whether there is a statement runner.
 */

const postgres = await postgresForTests();

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-seam-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('naming a database', () => {
  it('reads a postgres:// URL as a PostgreSQL database and anything else as a SQLite file', () => {
    expect(databaseLocationOf('postgres://quire@db.example:5433/site').postgres).toMatchObject({
      host: 'db.example',
      port: 5433,
      database: 'site',
    });
    expect(databaseLocationOf('postgresql://quire@db.example/site').postgres?.database).toBe('site');
    expect(databaseLocationOf('site/content.sqlite')).toEqual({ dbFile: resolve('site/content.sqlite') });
  });

  it('refuses a PostgreSQL URL it cannot read', () => {
    expect(() => databaseLocationOf('postgres://quire@db.example:notaport/site')).toThrow();
  });
});

describe('a SQLite database', () => {
  it('is owned by this process: a statement runner, uploads and backups beside the file', async () => {
    const file = join(dir, 'owned', 'content.sqlite');
    const site = await databaseSite({ dbFile: file });
    expect(site.exists()).toBe(false);
    expect(site.backupsBesideDatabase).toBe(true);
    const database: QuireDb = await site.open();
    try {
      expect(site.exists()).toBe(true);
      expect(() => site.requireQuireDatabase()).not.toThrow();
      expect(database.description).toBe(file);
      expect(database.sharedByServers).toBe(false);
      expect(database.runner).toBeDefined();
      await expect(database.ready).resolves.toBeUndefined();
      const store = database.media()?.store;
      expect(store).toBeInstanceOf(FileMediaStore);
      expect(store instanceof FileMediaStore && store.root).toBe(join(dirname(file), 'media'));
      expect(database.backupJob({})?.place.dir).toBe(join(dirname(file), 'backups'));
      expect(requireSqlite(database, 'this check').file).toBe(file);
    } finally {
      await database.close();
    }
  });

  it('in memory keeps no uploads and takes no backups', async () => {
    const database = await openDatabaseAt({ dbFile: ':memory:' });
    try {
      expect(database.media()).toBeNull();
      expect(database.backupJob({})).toBeNull();
      expect(await database.uploads.replaceable(database.db)).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('refuses, before opening, a file that is not a Quire database', async () => {
    const site = await databaseSite({ dbFile: join(dir, 'missing.sqlite') });
    expect(() => site.requireQuireDatabase()).toThrow(/There is no database file/);
  });
});

describe.skipIf(!postgres.available)(`a PostgreSQL database${skipNote(postgres)}`, () => {
  const testDatabase = useTestDatabase(postgres.url);

  it('may be shared by servers: no statement runner, uploads in the database, backups elsewhere', async () => {
    const site = await databaseSite({ dbFile: '', postgres: testDatabase().target });
    expect(site.exists()).toBe(true);
    expect(site.backupsBesideDatabase).toBe(false);
    const database = await site.open();
    try {
      expect(database.sharedByServers).toBe(true);
      expect(database.runner).toBeUndefined();
      expect(database.media()?.store).toBeInstanceOf(PostgresMediaStore);
      expect(database.backupJob({ dir: join(dir, 'pg-backups') })?.place.dir).toBe(join(dir, 'pg-backups'));
      expect(await database.uploads.count()).toBe(0);
      expect(() => requireSqlite(database, 'this check')).toThrow(/SQLite database only/);
      // Forgetting named statements after a content-type change leaves the database usable.
      database.afterTypesChanged();
      expect(await database.uploads.replaceable(database.db)).toBe(0);
    } finally {
      await database.close();
    }
  });
});
