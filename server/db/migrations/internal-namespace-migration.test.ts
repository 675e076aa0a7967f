// Engine: SQLite only: it migrates SQLite files of earlier versions; PostgreSQL's migrations are
// server/db/database-migrate.test.ts and server/db/postgres/postgres-order-key-migration.test.ts.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../database.js';
import { ContentRepository, type RowSelection } from '../repositories/content-repository.js';
import { openSqlite } from '../sqlite/sqlite-dialect.js';
import { indexedColumns } from '../sqlite/sqlite-search-index.js';

/** The schema 007 left (see the fixture's header), with rows written while it was current. */
function previousSchemaDatabase(file: string): void {
  const { raw } = openSqlite(file);
  raw.exec(readFileSync(new URL('./schema-007-fixture.sql', import.meta.url), 'utf8'));
  const news = raw.prepare(
    `insert into news (id, title, slug, status, published_at, created_at, updated_at) values (?, ?, ?, 'draft', '2025-01-01 00:00:00', 'x', 'x')`,
  );
  const authors = raw.prepare(
    `insert into authors (id, name, slug, created_at, updated_at) values (?, ?, ?, 'x', 'x')`,
  );
  const pending = raw.prepare(`insert into news_pending (id, title, created_at, updated_at) values (?, ?, 'x', 'x')`);
  raw.transaction(() => {
    for (let i = 0; i < 40; i++) news.run(`news-${i}`, `Über Nachricht ${i}`, `uber-nachricht-${i}`);
    news.run('news-cafe', 'Café Zürich', 'cafe-zurich');
    authors.run('author-1', 'Ursula Le Guin', 'ursula-le-guin');
    authors.run('author-2', 'Octavia Butler', 'octavia-butler');
    pending.run('pending-1', 'Über den Wolken');
  })();
  raw.close();
}

let dir: string;
let database: SqliteQuireDb;
let indexed: ContentRepository;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-migrate-008-'));
  const file = join(dir, 'content.sqlite');
  previousSchemaDatabase(file);
  database = await openDatabase(file);
  indexed = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

const SEARCH_COLUMNS: Record<string, string[]> = {
  news: ['title', 'slug'],
  authors: ['name', 'slug'],
  news_pending: ['title'],
};

/** Ids found through the search index (which must be in place), after checking they are the plain scan's. */
async function searchIds(table: string, keyword: string): Promise<string[]> {
  const columns = await indexedColumns(database.db as unknown as Kysely<unknown>, table);
  expect(new Set(columns), `the search index of ${table}`).toEqual(new Set(SEARCH_COLUMNS[table]));
  const selection: RowSelection = { equals: [], search: { columns: SEARCH_COLUMNS[table], keywords: [keyword] } };
  const scanned = (await indexed.listByScan(table, selection)).map((row) => row.id);
  const found = await indexed.list(table, selection, { order: 'id', desc: false, limit: 1000, offset: 0 });
  expect(
    found.map((row) => row.id),
    `${keyword} in ${table}`,
  ).toEqual(scanned);
  return scanned as string[];
}

describe('migrating a database at the previous schema (007)', () => {
  it('leaves no internal object outside the quire_ namespace', () => {
    const outside = database.raw
      .prepare(
        `select type, name from sqlite_master where sql is not null and type != 'table' and name not like 'quire\\_%' escape '\\'`,
      )
      .all();
    expect(outside).toEqual([]);
    const legacy = database.raw.prepare(
      `select name from sqlite_master where name like 'quire\\_search\\_%' escape '\\'`,
    );
    expect(legacy.all()).toEqual([]);
    const tables = database.raw
      .prepare(`select name from sqlite_master where type = 'table' and name not like 'quire\\_%' escape '\\'`)
      .pluck()
      .all();
    expect(new Set(tables)).toEqual(
      new Set([
        // SQLite's own counter for AUTOINCREMENT ids (the build-hook tables): its name is reserved
        // to SQLite, so no content type can take it.
        'sqlite_sequence',
        'kysely_migration',
        'kysely_migration_lock',
        'news',
        'categories',
        'articles',
        'menu_items',
        'authors',
        'news_pending',
      ]),
    );
  });

  it('indexes each type for its search columns, a type titled by name included', async () => {
    const db = database.db as unknown as Kysely<unknown>;
    for (const [table, columns] of Object.entries(SEARCH_COLUMNS)) {
      expect(new Set(await indexedColumns(db, table)), table).toEqual(new Set(columns));
    }
    // Migration 018 dropped the FTS5 indexes: searches are answered in memory, or by the plain scan.
    const fts = database.raw.prepare(`select name from sqlite_master where name like 'quire\\_fts:%' escape '\\'`);
    expect(fts.all()).toEqual([]);
  });

  it('finds the same rows as the plain scan, including those written at the old schema', async () => {
    expect(await searchIds('news', 'über')).toHaveLength(40);
    expect(await searchIds('news', 'ZÜRICH')).toEqual(['news-cafe']);
    expect(await searchIds('news', 'nachricht 3')).toEqual([
      'news-3',
      'news-30',
      'news-31',
      'news-32',
      'news-33',
      'news-34',
      'news-35',
      'news-36',
      'news-37',
      'news-38',
      'news-39',
    ]);
    expect(await searchIds('authors', 'le guin')).toEqual(['author-1']);
    expect(await searchIds('authors', 'butler')).toEqual(['author-2']);
    expect(await searchIds('news_pending', 'wolken')).toEqual(['pending-1']);
  });

  it('keeps the types apart that shared a name before: writes to news reach only news', async () => {
    database.raw
      .prepare(
        `insert into news (id, title, slug, status, published_at, created_at, updated_at) values ('news-new', 'Wolkenkratzer', 'wolkenkratzer', 'draft', '2025-01-01 00:00:00', 'x', 'x')`,
      )
      .run();
    database.raw.prepare(`update news_pending set title = 'Unter den Wolken' where id = 'pending-1'`).run();
    expect(await searchIds('news', 'wolken')).toEqual(['news-new']);
    expect(await searchIds('news_pending', 'wolken')).toEqual(['pending-1']);
    await database.db.transaction().execute(async (trx) => {
      const repository = new ContentRepository({ db: trx, engine: database.engine });
      for (const [table, columns] of Object.entries(SEARCH_COLUMNS)) await repository.flushSearchIndex(table, columns);
    });
    expect(await searchIds('news', 'wolken')).toEqual(['news-new']);
    expect(await searchIds('news_pending', 'unter den')).toEqual(['pending-1']);
  });
});
