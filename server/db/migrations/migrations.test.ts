// Engine: SQLite only: it migrates SQLite files of earlier versions; PostgreSQL's migrations are
// server/db/database-migrate.test.ts and server/db/postgres/postgres-order-key-migration.test.ts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, type Migration, Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../database.js';
import { contentIndexName } from '../queries/internal-names.js';
import { openSqlite } from '../sqlite/sqlite-dialect.js';
import { sqliteEngine } from '../sqlite/sqlite-engine.js';
import * as registry from './001-content-type-registry.js';
import * as starterTypes from './002-starter-types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A database file as the first release left it: schema version 002, one news row. */
async function firstReleaseDatabase(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-migrate-'));
  dirs.push(dir);
  const file = join(dir, 'content.sqlite');
  const { raw, dialect } = openSqlite(file);
  const db = new Kysely<unknown>({ dialect });
  const firstRelease: Record<string, Migration> = {
    '001-content-type-registry': registry,
    '002-starter-types': { up: (db) => starterTypes.up(db, sqliteEngine) },
  };
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => firstRelease } }).migrateToLatest();
  expect(error).toBeUndefined();
  raw
    .prepare(
      `insert into news (id, title, slug, status, published_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      'old-1',
      'Kept from before',
      'kept-from-before',
      'published',
      '2024-01-01 10:00:00',
      '2024-01-01 10:00:00.000000',
      '2024-01-01 10:00:00.000000',
    );
  await db.destroy();
  return file;
}

describe('opening a database made by an earlier version', () => {
  it('migrates it forward, keeping its rows and recording the schema version', async () => {
    const file = await firstReleaseDatabase();
    const database = await openDatabase(file);
    try {
      const types = database.raw.prepare('select slug, flat_meta from quire_content_types order by position').all();
      expect(types).toEqual([
        { slug: 'news', flat_meta: 0 },
        { slug: 'categories', flat_meta: 0 },
        { slug: 'articles', flat_meta: 1 },
        { slug: 'menu_items', flat_meta: 0 },
      ]);
      expect(database.raw.prepare('select title from news').all()).toEqual([{ title: 'Kept from before' }]);
      const applied = database.raw.prepare('select name from kysely_migration order by name').all() as {
        name: string;
      }[];
      expect(applied.map((row) => row.name)).toContain('006-updated-at-index');
      const indexes = database.raw
        .prepare(`select name from sqlite_master where type = 'index' and tbl_name = 'news'`)
        .all();
      expect(indexes).toContainEqual({ name: contentIndexName('news', ['updated_at'], false) });
    } finally {
      await database.close();
    }
  });

  it('is idempotent: opening an up-to-date database changes nothing', async () => {
    const file = await firstReleaseDatabase();
    await (await openDatabase(file)).close();
    const again = await openDatabase(file);
    try {
      expect((again.raw.prepare('select count(*) as n from quire_content_types').get() as { n: number }).n).toBe(4);
    } finally {
      await again.close();
    }
  });
});
