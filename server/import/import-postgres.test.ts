// Engine: both in one run: the same file imported into SQLite and into a PostgreSQL database of its own, compared
// through the API.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangePage } from '../changes/change-feed.js';
import { openDatabase, openPostgresDatabase } from '../db/database.js';
import { searchTextName } from '../db/queries/internal-names.js';
import { startServer } from '../server.js';
import { captureOutput } from '../test-support/captured-output.js';
import { indexWalkHeapFetches, postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { startPostgresTestServer } from '../test-support/postgres-server.js';
import { importCommand } from './import-command.js';

/**
 * `quire import --database URL`: the same file imported into SQLite and into PostgreSQL
 * gives the same rows through the API (ids, fields, generated slugs, relations to earlier rows of
 * the same file, search), and a refused file leaves both as they were.
 */

const postgres = await postgresForTests();

/** Menu items: a parent named a few lines up, a slug made from a title taken twice, a given id. */
const MENU = [
  { id: 'home', title: 'Home', url: '/', status: 'published' },
  { id: 'blog', title: 'Blog', url: '/blog', status: 'published' },
  { id: 'blog-2025', title: 'Blog', url: '/blog/2025', parent: 'blog', status: 'draft' },
  { title: 'Über uns', url: '/about', parent: 'home', status: 'published' },
  { title: 'Ärger', url: '/trouble', position: 3, status: 'draft' },
];

describe.skipIf(!postgres.available)(`quire import on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let dir: string;
  let dbFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-import-pg-'));
    dbFile = join(dir, 'content.sqlite');
    await (await openDatabase(dbFile)).close();
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function runImport(where: string[], type: string, name: string, content: string) {
    const path = join(dir, name);
    writeFileSync(path, content);
    const out = captureOutput();
    const err = captureOutput();
    const code = await importCommand([...where, '--type', type, path], { out, err });
    return { code, out: out.text, err: err.text };
  }

  /** Rows as the API lists them, without the times of the import (they differ by run). */
  async function menuThroughApi(origin: string, search?: string) {
    const filter = search ? `&filter=${encodeURIComponent(`search=${search}`)}` : '';
    const response = await fetch(`${origin}/api/cms/menu_items?limit=100&order=id${filter}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { total: number; filtered: number; rows: Record<string, unknown>[] };
    const rows = body.rows.map(({ created_at, updated_at, ...row }): Record<string, unknown> => {
      expect(created_at).toEqual(expect.any(String));
      expect(updated_at).toEqual(expect.any(String));
      // Generated ids differ by run: named by their slug, which both engines make the same.
      return { ...row, id: MENU.some((item) => item.id === row.id) ? row.id : `(new) ${row.slug}` };
    });
    return { total: body.total, filtered: body.filtered, rows };
  }

  async function both<T>(read: (origin: string) => Promise<T>): Promise<{ sqlite: T; postgres: T }> {
    const onSqlite = await startServer({ dbFile, port: 0, host: '127.0.0.1', editorName: 'tester', backups: false });
    const onPostgres = await startPostgresTestServer(database().target);
    try {
      return { sqlite: await read(onSqlite.origin), postgres: await read(onPostgres.origin) };
    } finally {
      await onSqlite.close();
      await onPostgres.close();
    }
  }

  /** The indexes of a table (menu_items unless named) on PostgreSQL, by name, with their definitions. */
  async function postgresIndexes(...tables: string[]): Promise<Record<string, string>> {
    const pg = await openPostgresDatabase(database().target);
    try {
      const names = tables.length > 0 ? tables : ['menu_items'];
      const { rows } = await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition
        from pg_indexes where tablename = any(${names}::text[])`.execute(pg.db);
      return Object.fromEntries(rows.map((row) => [row.name, row.definition]));
    } finally {
      await pg.close();
    }
  }

  it('imports the same rows into both engines, search text included', async () => {
    const indexesBefore = await postgresIndexes();
    expect(Object.keys(indexesBefore).length).toBeGreaterThan(2);
    const ndjson = `${MENU.map((item) => JSON.stringify(item)).join('\n')}\n`;
    const intoSqlite = await runImport(['--db', dbFile], 'menu_items', 'menu.ndjson', ndjson);
    const intoPostgres = await runImport(['--database', database().url], 'menu_items', 'menu.ndjson', ndjson);
    expect(intoSqlite, intoSqlite.err).toMatchObject({ code: 0, err: '' });
    expect(intoPostgres, intoPostgres.err).toMatchObject({ code: 0, err: '' });
    expect(intoPostgres.out).toMatch(
      /^Imported 5 menu_items rows from menu\.ndjson in [\d.]+ s \([\d,]+ rows\/s\)(, indexes built after the rows in [\d.]+ s of that)?\n$/,
    );
    // The plain indexes, dropped for the import into an empty table, are back as they were.
    expect(await postgresIndexes()).toEqual(indexesBefore);

    const { sqlite, postgres: onPostgres } = await both((origin) => menuThroughApi(origin));
    expect(sqlite.total).toBe(5);
    expect(onPostgres).toEqual(sqlite);
    expect(sqlite.rows).toContainEqual(expect.objectContaining({ id: 'blog-2025', slug: 'blog-2' }));

    // The search side table was written with the rows: a folded keyword finds them.
    const found = await both((origin) => menuThroughApi(origin, 'ÄRGER'));
    expect(found.sqlite.filtered).toBe(1);
    expect(found.sqlite.rows).toEqual([expect.objectContaining({ title: 'Ärger' })]);
    expect(found.postgres).toEqual(found.sqlite);
    const pg = await openPostgresDatabase(database().target);
    try {
      const { rows } = await sql<{
        n: string;
      }>`select count(*) as n from ${sql.table(searchTextName('menu_items'))}`.execute(pg.db);
      expect(Number(rows[0].n)).toBe(5);
      // The import analyzed both tables: the planner has statistics of their columns at once.
      const analyzed = await sql<{ table: string }>`select distinct tablename as table from pg_stats
        where tablename = any(${['menu_items', searchTextName('menu_items')]}::text[])`.execute(pg.db);
      expect(analyzed.rows.map((row) => row.table).sort()).toEqual(['menu_items', searchTextName('menu_items')].sort());
    } finally {
      await pg.close();
    }
  });

  it('a second import makes the same slugs next to the rows already there', async () => {
    const json = JSON.stringify([
      { title: 'Blog', url: '/b3', status: 'draft' },
      { title: 'Home', url: '/h2', status: 'draft' },
    ]);
    expect((await runImport(['--db', dbFile], 'menu_items', 'more.json', json)).code).toBe(0);
    expect((await runImport(['--database', database().url], 'menu_items', 'more.json', json)).code).toBe(0);
    const { sqlite, postgres: onPostgres } = await both((origin) => menuThroughApi(origin));
    expect(sqlite.total).toBe(7);
    expect(sqlite.rows.map((row) => row.slug)).toEqual(expect.arrayContaining(['blog-3', 'home-2']));
    expect(onPostgres).toEqual(sqlite);
  });

  it('refuses a file with bad rows on both engines alike, and imports nothing', async () => {
    const csv = 'id,title,url,parent,status\nhome,Taken,/x,,draft\nfresh,,/y,,draft\nok,Fine,/z,nowhere,draft\n';
    const intoSqlite = await runImport(['--db', dbFile], 'menu_items', 'bad.csv', csv);
    const intoPostgres = await runImport(['--database', database().url], 'menu_items', 'bad.csv', csv);
    expect(intoSqlite.code).toBe(1);
    expect(intoSqlite.err).toMatch(/3 of 3 rows refused; nothing was imported\n$/);
    expect(intoPostgres).toEqual(intoSqlite);
    const { sqlite, postgres: onPostgres } = await both((origin) => menuThroughApi(origin));
    expect(sqlite.total).toBe(7);
    expect(onPostgres).toEqual(sqlite);
  });

  it('puts each imported row in the change feed on both engines, and no refused one', async () => {
    /** The ids of the feed's menu_items changes and of the rows the API lists. */
    async function feedAndRows(origin: string) {
      const response = await fetch(`${origin}/api/changes?since=0&limit=1000&types=menu_items`);
      expect(response.status).toBe(200);
      const { changes } = (await response.json()) as ChangePage;
      for (const change of changes) expect(change).toMatchObject({ action: 'create', by: 'import' });
      const listed = await fetch(`${origin}/api/cms/menu_items?limit=100&order=id`);
      const { rows } = (await listed.json()) as { rows: { id: string }[] };
      return { fed: changes.map((change) => change.id).sort(), rows: rows.map((row) => row.id).sort() };
    }
    const { sqlite, postgres: onPostgres } = await both(feedAndRows);
    expect(sqlite.rows).toHaveLength(7);
    expect(sqlite.fed).toEqual(sqlite.rows);
    expect(onPostgres.fed).toEqual(onPostgres.rows);
  });

  it('writes batches while later rows are validated: a refusal past them leaves nothing, a clean file every row and index', async () => {
    const tables = ['news', searchTextName('news')];
    const indexesBefore = await postgresIndexes(...tables);
    // Search table: its primary key and one trigram index per search column.
    expect(Object.keys(indexesBefore).filter((name) => name.startsWith('quire_search_trgm:news:')).length).toBe(2);
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      title: i % 2 === 0 ? 'Same title' : `Row ${i}`,
      status: 'draft',
      published_at: '2025-01-01 00:00:00',
    }));
    const lines = (extra: object[]) => `${[...rows, ...extra].map((row) => JSON.stringify(row)).join('\n')}\n`;
    const refused = await runImport(
      ['--database', database().url],
      'news',
      'late.ndjson',
      lines([{ title: 'No status', published_at: '2025-01-01 00:00:00' }]),
    );
    expect(refused.err).toBe(
      'late.ndjson line 2501: status is required\nquire import: 1 of 2,501 rows refused; nothing was imported\n',
    );
    expect(await postgresIndexes(...tables)).toEqual(indexesBefore);
    const imported = await runImport(['--database', database().url], 'news', 'clean.ndjson', lines([]));
    expect(imported, imported.err).toMatchObject({ code: 0, err: '' });
    expect(await postgresIndexes(...tables)).toEqual(indexesBefore);
    const pg = await openPostgresDatabase(database().target);
    try {
      const counted = await sql<{ rows: string; slugs: string; searched: string }>`select
        (select count(*) from news) as rows, (select count(distinct slug) from news) as slugs,
        (select count(*) from ${sql.table(searchTextName('news'))}) as searched`.execute(pg.db);
      expect(counted.rows[0]).toEqual({ rows: '2500', slugs: '2500', searched: '2500' });
      // Each row once in the change feed, across several statements; the refused file's in none.
      const fed = await sql<{ n: string }>`select count(distinct row_id) as n from quire_changes
        where table_name = 'news' and action = 'create' and changed_by = 'import'`.execute(pg.db);
      expect(fed.rows[0].n).toBe('2500');
      // VACUUMed after the import: a list's walk of an index reads no table page to check visibility.
      expect(await indexWalkHeapFetches(pg.db, 'news')).toBe(0);
    } finally {
      await pg.close();
    }
    const found = await startPostgresTestServer(database().target);
    try {
      const response = await fetch(
        `${found.origin}/api/cms/news?filter=${encodeURIComponent('search=same tit')}&limit=1`,
      );
      expect(((await response.json()) as { filtered: number }).filtered).toBe(1250);
    } finally {
      await found.close();
    }
  });
});
