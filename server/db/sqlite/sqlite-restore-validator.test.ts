// Engine: SQLite only: backups and restores of the SQLite file itself; PostgreSQL's backup, restore and import are
// server/backup/postgres-backup.test.ts and server/import/import-postgres.test.ts.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bareRegistry,
  fromNewerVersion,
  fromOlderVersion,
  quireDatabase,
  tamper,
  withForeignTable,
  withForeignTrigger,
  withImpostorTrigger,
  withMalformedRegistry,
  withRecursiveView,
  withUnreadableRegistry,
} from '../../test-support/hostile-databases.js';
import { startTestServer } from '../../test-support/test-server.js';
import { openDatabase } from '../database.js';
import { migrationProvider } from '../migrations/index.js';
import { sqliteEngine } from './sqlite-engine.js';
import { restoreDatabase } from './sqlite-restore.js';

let dir: string;
let dbFile: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-restore-check-'));
  dbFile = await quireDatabase(join(dir, 'content.sqlite'));
  tamper(
    dbFile,
    `insert into categories (id, title, slug, created_at, updated_at)
    values ('kept', 'Kept', 'kept', '2026-01-01 00:00:00.000000', '2026-01-01 00:00:00.000000');`,
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function categoryIds(file: string): string[] {
  const raw = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return raw.prepare('select id from categories order by id').pluck().all() as string[];
  } finally {
    raw.close();
  }
}

/** The live database and its folder exactly as before: no partial copy, no before-restore backup. */
function expectNothingChanged(): void {
  expect(categoryIds(dbFile)).toEqual(['kept']);
  const left = readdirSync(dir).filter((name) => !/-(?:wal|shm)$/.test(name));
  expect(left.sort()).toEqual(['content.sqlite', 'hostile']);
}

describe('restore refuses a database Quire did not write, saying why in one line', () => {
  const hostile = () => join(dir, 'hostile', 'backup.sqlite');
  beforeEach(() => {
    mkdirSync(join(dir, 'hostile'));
  });

  it.each([
    [
      'its own trigger (a news insert deletes every category)',
      withForeignTrigger,
      'it has a trigger "news_cleanup" on "news" that Quire did not write',
    ],
    [
      'a recursive view in place of a content table',
      withRecursiveView,
      'it has a view "categories", and Quire never creates views',
    ],
    [
      'a bare registry table',
      async (file: string) => bareRegistry(file),
      'it has no schema version (no kysely_migration table), so Quire did not write it',
    ],
    [
      'a registry with a column type that does not exist',
      withMalformedRegistry,
      'its content-type registry does not load: Content type news: column title has unknown type colour',
    ],
    [
      'a registry whose columns are not JSON',
      withUnreadableRegistry,
      'the columns of content type "categories" in its registry are not valid JSON',
    ],
    [
      'a table of its own',
      withForeignTable,
      `it has a table "stolen_passwords" that is neither Quire's nor a content type's`,
    ],
    [
      'a newer schema version',
      fromNewerVersion,
      'it was written by a newer version of Quire (its schema migration "999-from-the-future" is unknown to this one); update Quire, then restore',
    ],
    [
      'a content table with a constraint Quire does not write',
      async (file: string) =>
        tamper(
          await quireDatabase(file),
          `drop table categories;
           create table categories ("id" text not null primary key, "title" text check (length(title) < 3), "slug" text,
             "meta" text, "created_at" text not null, "updated_at" text not null, "created_by" text, "updated_by" text);`,
        ),
      'the content table "categories" has a definition Quire does not write: "title" text check (length(title) < 3)',
    ],
    [
      'a content table without a column its type lists',
      async (file: string) =>
        // SQLite drops no indexed column: the title's order index goes first.
        tamper(
          await quireDatabase(file),
          'drop index "quire_idx:categories:title"; alter table categories drop column "title";',
        ),
      'the content table "categories" lacks "title" text, which its content type needs',
    ],
    [
      'a registry naming Quire’s own table as a content table',
      async (file: string) =>
        tamper(
          await quireDatabase(file),
          `update quire_content_types set table_name = 'kysely_migration' where slug = 'news';`,
        ),
      'content type "news" names the table "kysely_migration", not a content table',
    ],
    [
      'an index on the registry',
      async (file: string) =>
        tamper(await quireDatabase(file), 'create unique index quire_position on quire_content_types (position);'),
      'it has an index "quire_position" on "quire_content_types" that Quire did not write',
    ],
  ])('%s', async (_name, build, reason) => {
    const file = await build(hostile());
    const failure = await restoreDatabase(file, dbFile).catch((error: Error) => error);
    expect((failure as Error).message).toBe(`${file} cannot be restored: ${reason}; nothing was changed`);
    expectNothingChanged();
  });
});

describe('restore accepts what Quire writes', () => {
  it('migrates a backup of an older schema, which then opens and serves with search', async () => {
    const older = await fromOlderVersion(join(dir, 'older.sqlite'), '004-article-and-menu-types');
    tamper(
      older,
      `insert into news (id, title, slug, status, published_at, created_at, updated_at)
      values ('n1', 'Older news', 'older-news', 'draft', '2025-01-01 10:00:00', '2025-01-01 10:00:00.000000', '2025-01-01 10:00:00.000000');`,
    );
    await restoreDatabase(older, dbFile);
    const raw = new Database(dbFile, { readonly: true });
    const applied = raw.prepare('select name from kysely_migration order by name').pluck().all();
    raw.close();
    expect(applied).toEqual(Object.keys(await migrationProvider(sqliteEngine).getMigrations()).sort());
    expect(existsSync(`${dbFile}-wal`)).toBe(false);

    const server = await startTestServer({ dir, dbFile });
    try {
      const found = (await (await fetch(`${server.api}/cms/news?filter=search=older`)).json()) as { total: number };
      expect(found.total).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('rebuilds a trigger that only looks like Quire’s: afterwards a news insert leaves categories alone', async () => {
    const impostor = await withImpostorTrigger(join(dir, 'impostor.sqlite'));
    tamper(
      impostor,
      `insert into categories (id, title, slug, created_at, updated_at)
      values ('c1', 'One', 'one', '2026-01-01 00:00:00.000000', '2026-01-01 00:00:00.000000');`,
    );
    await restoreDatabase(impostor, dbFile);
    const server = await startTestServer({ dir, dbFile });
    try {
      const created = await fetch(`${server.api}/cms/news/fresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'title=Fresh&status=draft&published_at=2025-01-01%2010:00:00',
      });
      expect(created.status).toBe(201);
      const searched = (await (await fetch(`${server.api}/cms/news?filter=search=fresh`)).json()) as { total: number };
      expect(searched.total).toBe(1);
    } finally {
      await server.stop();
    }
    expect(categoryIds(dbFile)).toEqual(['c1']);
    const raw = new Database(dbFile, { readonly: true });
    const triggers = raw.prepare(`select name from sqlite_master where type = 'trigger'`).pluck().all();
    raw.close();
    expect(triggers).not.toContain('quire_news_cleanup');
  });

  it('drops a unique index that only looks like Quire’s, so rows sharing a status can be written', async () => {
    const file = tamper(
      await quireDatabase(join(dir, 'unique.sqlite')),
      'drop index "quire_idx:news:status"; create unique index "quire_idx:news:status" on news (status);',
    );
    await restoreDatabase(file, dbFile);
    const database = await openDatabase(dbFile);
    try {
      for (const id of ['a', 'b']) {
        database.raw
          .prepare(
            `insert into news (id, title, slug, status, published_at, created_at, updated_at)
             values (?, ?, ?, 'draft', '2025-01-01 10:00:00', '2025-01-01 10:00:00.000000', '2025-01-01 10:00:00.000000')`,
          )
          .run(id, id, id);
      }
      expect(database.raw.prepare('select count(*) from news').pluck().get()).toBe(2);
    } finally {
      await database.close();
    }
  });
});
