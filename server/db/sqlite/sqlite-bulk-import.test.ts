import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentTypeRegistry } from '../../content/content-type-registry.js';
import { importCommand } from '../../import/import-command.js';
import type { ImportRecord } from '../../import/import-formats.js';
import { importRows } from '../../import/row-import.js';
import { captureOutput } from '../../test-support/captured-output.js';
import { openDatabase } from '../database.js';
import { searchPendingName } from '../queries/internal-names.js';
import { ContentRepository } from '../repositories/content-repository.js';
import { ContentTypeRepository } from '../repositories/content-type-repository.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let dir: string;
let dbFile: string;

async function runImport(rows: readonly object[]) {
  const path = join(dir, 'rows.ndjson');
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n'));
  const out = captureOutput();
  const err = captureOutput();
  const code = await importCommand(['--db', dbFile, '--type', 'news', path], { out, err });
  return { code, out: out.text, err: err.text };
}

/** The schema of `news` (its indexes and search triggers included), as SQLite stores it. */
function schemaOf(raw: Database.Database) {
  return raw.prepare(`select type, name, sql from sqlite_master where tbl_name = 'news' order by type, name`).all();
}

function readDb<T>(work: (raw: Database.Database) => T): T {
  const raw = new Database(dbFile, { readonly: true });
  try {
    return work(raw);
  } finally {
    raw.close();
  }
}

const row = (title: string, extra: object = {}) => ({
  title,
  status: 'draft',
  published_at: '2025-01-01 00:00:00',
  ...extra,
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-bulk-'));
  dbFile = join(dir, 'content.sqlite');
  await (await openDatabase(dbFile)).close();
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite bulk import into an empty table', () => {
  it('gives the slugs, ids and refusals of row-by-row writes, and leaves schema, search and WAL as they were', async () => {
    const before = readDb(schemaOf);
    // Past 64 equal titles the in-memory slug set merges its recent additions into its sorted part.
    const rows = [
      ...Array.from({ length: 150 }, () => row('Same title')),
      row('Given', { id: 'given-1', slug: 'same-title-9000' }),
      row('Other'),
    ];
    const result = await runImport(rows);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    readDb((raw) => {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(schemaOf(raw)).toEqual(before);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      const slugs = raw.prepare('select slug from news order by rowid').pluck().all();
      expect(slugs.slice(0, 3)).toEqual(['same-title', 'same-title-2', 'same-title-3']);
      expect(slugs.slice(148)).toEqual(['same-title-149', 'same-title-150', 'same-title-9000', 'other']);
      expect(new Set(slugs).size).toBe(152);
      expect(raw.prepare(`select id from news where title = 'Given'`).pluck().get()).toBe('given-1');
      // The load noted no row as pending: in-memory search indexes build from the table.
      expect(
        raw
          .prepare(`select count(*) from "${searchPendingName('news')}"`)
          .pluck()
          .get(),
      ).toBe(0);
      const plan = raw
        .prepare(`explain query plan select id from news where slug = 'other'`)
        .all()
        .map((step) => (step as { detail: string }).detail)
        .join();
      expect(plan).toContain('quire_unique:news:slug');
    });
    const database = await openDatabase(dbFile);
    try {
      const repository = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
      const selection = { equals: [], search: { columns: ['title', 'slug'], keywords: ['SAME TITLE'] } };
      expect(await repository.count('news', selection)).toBe(150);
    } finally {
      await database.close();
    }
  });

  it('refuses an id or slug given twice in the file, or one the file generated before, and writes nothing', async () => {
    const before = readDb(schemaOf);
    const result = await runImport([
      row('First', { id: 'twice' }),
      row('Second', { id: 'twice' }),
      row('Third'),
      row('Fourth', { slug: 'third' }),
    ]);
    expect(result.code).toBe(1);
    expect(result.err.split('\n').slice(0, 3)).toEqual([
      'rows.ndjson line 2: id "twice" is already taken',
      'rows.ndjson line 4: slug is already taken',
      'quire import: 2 of 4 rows refused; nothing was imported',
    ]);
    readDb((raw) => {
      expect(raw.prepare('select count(*) from news').pluck().get()).toBe(0);
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(schemaOf(raw)).toEqual(before);
    });
  });

  it('imports in WAL while another connection has the database open, and that one reads the rows', async () => {
    const other = new Database(dbFile);
    try {
      expect(other.prepare('select count(*) from news').pluck().get()).toBe(0);
      const result = await runImport([row('One'), row('Two')]);
      expect(result.code).toBe(0);
      expect(other.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(other.prepare('select title from news order by rowid').pluck().all()).toEqual(['One', 'Two']);
    } finally {
      other.close();
    }
  });
});

describe('a bulk import on a connection that searches', () => {
  it("keeps the connection's in-memory search index in step (the insert trigger dropped for the load)", async () => {
    await runImport([row('Existing alpha'), row('Existing beta')]);
    const database = await openDatabase(dbFile);
    try {
      const registry = new ContentTypeRegistry({ repository: new ContentTypeRepository(database.db) });
      await registry.reload();
      const news = registry.requireByTable('news');
      const reader = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
      const memory = database.engine.searchIndex.memory;
      const query = (keyword: string) => ({
        db: database.db as unknown as Kysely<unknown>,
        runner: database.runner,
        table: 'news',
        columns: news.searchColumns,
        keywords: [keyword],
        equals: [],
      });
      // The index is built on this connection, and answers.
      for (let i = 0; i < 400 && (await memory?.count(query('alpha'))) !== 1; i++) await sleep(5);
      expect(await memory?.count(query('alpha'))).toBe(1);
      const records: ImportRecord[] = [0, 1, 2].map((n) => ({ line: n + 1, fields: row(`Imported zebra ${n}`) }));
      const result = await importRows(database, registry, news, records, {
        editorName: 'import',
      });
      expect(result.refused).toBe(0);
      const selection = { equals: [], search: { columns: news.searchColumns, keywords: ['zebra'] } };
      expect(await reader.count('news', selection)).toBe(3);
      expect(await memory?.count(query('zebra'))).not.toBe(0);
    } finally {
      await database.close();
    }
  });
});
