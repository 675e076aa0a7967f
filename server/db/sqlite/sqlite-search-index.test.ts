// Engine: SQLite only: SQLite's search triggers and pending table; PostgreSQL's search is compared with SQLite's row
// for row in server/http/postgres-search.test.ts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededTitle } from '../../test-support/search-scan.js';
import { openDatabase, type SqliteQuireDb } from '../database.js';
import { up as addSearchIndex } from '../migrations/005-search-index.js';
import { up as migrate018 } from '../migrations/018-search-index-in-memory.js';
import { searchPendingName, searchTriggerName } from '../queries/internal-names.js';
import { ContentRepository, type RowSelection, type StoredRow } from '../repositories/content-repository.js';

/** Words with the Unicode cases that differ between folding schemes, in both NFC and NFD. */
const WORDS = [
  'alpha',
  'Bravo',
  'über',
  'ÜBER',
  'U\u0308ber', // NFD: U + combining diaeresis
  'café',
  'cafe\u0301',
  'naïve',
  'FAÇADE',
  'jalapeño',
  'smørrebrød',
  'İstanbul', // lower-cases to i + combining dot in JavaScript
  'STRAẞE', // capital sharp s
  'Ǆemal', // title-case digraph
  'ΣΊΣΥΦΟΣ', // final sigma
  'Ωmega',
  'KELVIN', // Kelvin sign
  'ﬁsh', // ligature
  '"quoted"',
  "it's",
  'AND',
  'NEAR',
  'a*b',
  '😀smile',
  'x',
];

const SEARCH_COLUMNS = ['title', 'slug'] as const;

let dir: string;
let database: SqliteQuireDb;
let indexed: ContentRepository;
let plain: ContentRepository;
const titles: string[] = [];

function insertRow(id: string, title: string, slug: string | null): void {
  database.raw
    .prepare(
      `insert into news (id, title, slug, status, published_at, meta, created_at, updated_at) values (?, ?, ?, 'draft', '2025-01-01 00:00:00', null, 'x', 'x')`,
    )
    .run(id, title, slug);
}

function search(keywords: string[]): RowSelection {
  return { equals: [], search: { columns: SEARCH_COLUMNS, keywords } };
}

async function expectSameAsScan(keywords: string[]): Promise<void> {
  const selection = search(keywords);
  const expected = (await plain.listByScan('news', selection)).map((row: StoredRow) => row.id);
  const page = { order: 'id', desc: false, limit: 1000, offset: 0 };
  const actual = (await indexed.list('news', selection, page)).map((row) => row.id);
  expect(actual, JSON.stringify(keywords)).toEqual(expected);
  expect(await indexed.count('news', selection), JSON.stringify(keywords)).toBe(expected.length);
}

/** A keyword drawn from the stored text: substrings (across words too), re-cased, or random text. */
const keywordArbitrary = fc.oneof(
  fc
    .tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 12 }), fc.constantFrom('same', 'upper', 'lower', 'nfd'))
    .map(([pick, start, length, casing]) => {
      const title = titles[pick % titles.length];
      const chars = [...title];
      const from = start % chars.length;
      const piece = chars.slice(from, from + length).join('');
      if (casing === 'upper') return piece.toUpperCase();
      if (casing === 'lower') return piece.toLowerCase();
      if (casing === 'nfd') return piece.normalize('NFD');
      return piece;
    }),
  fc.constantFrom(...WORDS),
  fc.string({ minLength: 1, maxLength: 4 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 5 }),
);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-search-'));
  database = await openDatabase(join(dir, 'content.sqlite'));
  indexed = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
  plain = new ContentRepository({ db: database.db, engine: database.engine });
  const insertRows = (from: number, to: number) =>
    database.raw.transaction(() => {
      for (let i = from; i < to; i++) {
        const title = seededTitle(WORDS, i);
        titles.push(title);
        // Slugs are usually ASCII, but a stored slug may hold anything an older import put there.
        insertRow(`row-${String(i).padStart(4, '0')}`, title, i % 7 === 0 ? null : `${title.slice(0, 10)}-${i}`);
      }
    })();
  // Most rows are flushed; the last ones stay noted as pending, which the in-memory index reads again.
  insertRows(0, 600);
  insertRow('row-null-title', 'placeholder', 'only-a-slug');
  database.raw.prepare(`update news set title = null where id = 'row-null-title'`).run();
  await flush();
  insertRows(600, 700);
});

async function flush(): Promise<void> {
  await database.db
    .transaction()
    .execute((trx) =>
      new ContentRepository({ db: trx, engine: database.engine }).flushSearchIndex('news', SEARCH_COLUMNS),
    );
}

function pendingRows(): number {
  return (database.raw.prepare(`select count(*) as n from "${searchPendingName('news')}"`).get() as { n: number }).n;
}

afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('search on SQLite (the in-memory index, or the plain scan)', () => {
  it('keeps no search index in the file, only triggers noting changed rows', async () => {
    expect(database.engine.searchIndex.sql).toBeNull();
    const legacy = database.raw
      .prepare(`select count(*) as n from sqlite_master where name like 'quire_fts:%'`)
      .get() as {
      n: number;
    };
    expect(legacy.n).toBe(0);
    const db = database.db as unknown as Kysely<unknown>;
    expect(await database.engine.searchIndex.indexedColumns(db, 'news')).toEqual([...SEARCH_COLUMNS]);
  });

  it('finds Über for ÜBER, über and the decomposed form', async () => {
    for (const keyword of ['ÜBER', 'über', 'U\u0308BER', 'üBeR']) {
      const rows = await indexed.list('news', search([keyword]), { order: 'id', desc: false, limit: 1000, offset: 0 });
      expect(rows.length, keyword).toBeGreaterThan(0);
      for (const row of rows) {
        expect(`${row.title} ${row.slug}`.normalize('NFC').toLowerCase(), keyword).toContain('über');
      }
    }
  });

  it('agrees with the plain scan on fixed tricky keywords', async () => {
    const tricky = [
      'i̇stanbul',
      'İSTANBUL',
      'istanbul',
      'straße',
      'STRASSE',
      'ǆemal',
      'σίσυφος',
      'ΣΊΣΥΦΟΣ',
      'kelvin',
      'fish',
      'ﬁsh',
      '"quoted',
      "it's",
      'and',
      'near',
      'a*b',
      '😀',
      '😀smi',
      'ü',
      'üb',
      'r ü',
      'alpha bravo',
      'o ü',
      '  ',
      ' 1',
      'x 5',
      '""',
      'e\u0301',
      'café',
      'only-a',
    ];
    for (const keyword of tricky) await expectSameAsScan([keyword]);
  });

  it('agrees with the plain scan on 1- and 2-character keywords, answered by the in-memory index', async () => {
    const memory = database.engine.searchIndex.memory;
    const query = (keywords: string[]) => ({
      db: database.db as unknown as Kysely<unknown>,
      runner: database.runner,
      table: 'news',
      columns: SEARCH_COLUMNS,
      keywords,
      equals: [],
    });
    for (let i = 0; i < 1000 && (await memory?.count(query(['a']))) === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const keyword of ['a', 'ü', 'Ü', 'x', '😀', 'üb', 'ab', ' 1', 'e\u0301', 'ǆ', 'ß', 'ss', 'k', 'ı']) {
      expect(await memory?.count(query([keyword])), keyword).not.toBeNull();
      await expectSameAsScan([keyword]);
    }
  });

  it('agrees with the plain scan on many generated keywords', async () => {
    await fc.assert(
      fc.asyncProperty(keywordArbitrary, async (keyword) => {
        if (keyword.trim() === '') return;
        await expectSameAsScan([keyword.trim()]);
      }),
      { numRuns: 400, seed: 6 },
    );
  });

  it('agrees with the plain scan when several keywords must all match, short and long mixed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(keywordArbitrary, { minLength: 2, maxLength: 3 }), async (keywords) => {
        const trimmed = keywords.map((keyword) => keyword.trim()).filter((keyword) => keyword !== '');
        if (trimmed.length === 0) return;
        await expectSameAsScan(trimmed);
      }),
      { numRuns: 150, seed: 66 },
    );
  });

  it('notes the rows written since the last flush in the pending table', async () => {
    expect(pendingRows()).toBe(100);
  });

  it('stays in step with the table through inserts, updates and deletes', async () => {
    insertRow('row-new-1', 'Neue ÜBERSICHT', 'neue-ubersicht');
    database.raw.prepare(`update news set title = 'Schön KAFFEE' where id = 'row-0003'`).run();
    database.raw.prepare(`update news set slug = 'renamed-slug' where id = 'row-0004'`).run();
    database.raw.prepare(`delete from news where id = 'row-0005'`).run();
    const before = titles[3];
    for (const keyword of ['übersicht', 'kaffee', 'renamed', before.slice(0, 6), titles[5].slice(0, 8), 'sch']) {
      await expectSameAsScan([keyword]);
    }
    const afterUpdate = await indexed.list('news', search(['kaffee']), {
      order: 'id',
      desc: false,
      limit: 10,
      offset: 0,
    });
    expect(afterUpdate.map((row) => row.id)).toEqual(['row-0003']);
    const deleted = await indexed.list('news', search([titles[5].slice(-5)]), {
      order: 'id',
      desc: false,
      limit: 1000,
      offset: 0,
    });
    expect(deleted.map((row) => row.id)).not.toContain('row-0005');
  });

  it('gives the same rows before and after a flush', async () => {
    const keywords = ['übe', 'alpha', 'kaffee', titles[650].slice(0, 9), 'ÜBERSICHT', 'café'];
    const before = [];
    for (const keyword of keywords) {
      before.push(
        (await indexed.list('news', search([keyword]), { order: 'id', desc: false, limit: 1000, offset: 0 })).map(
          (row) => row.id,
        ),
      );
    }
    expect(pendingRows()).toBeGreaterThan(0);
    await flush();
    expect(pendingRows()).toBe(0);
    for (const [i, keyword] of keywords.entries()) {
      const after = await indexed.list('news', search([keyword]), { order: 'id', desc: false, limit: 1000, offset: 0 });
      expect(
        after.map((row) => row.id),
        keyword,
      ).toEqual(before[i]);
      await expectSameAsScan([keyword]);
    }
  });

  it('is rebuilt by the migration for a table that had no index', async () => {
    const file = join(dir, 'migrated.sqlite');
    const old = await openDatabase(file);
    try {
      const names = (['insert', 'update', 'delete'] as const).map((event) => searchTriggerName('news', event));
      old.raw.exec(
        `${names.map((trigger) => `drop trigger "${trigger}";`).join(' ')} drop table "${searchPendingName('news')}";`,
      );
      old.raw
        .prepare(
          `insert into news (id, title, slug, status, published_at, created_at, updated_at) values ('old', 'Vorher Über', 'vorher-uber', 'draft', '2025-01-01 00:00:00', 'x', 'x')`,
        )
        .run();
      await addSearchIndex(old.db as unknown as Kysely<unknown>, old.engine);
      const repository = new ContentRepository({ db: old.db, engine: old.engine, runner: old.runner });
      const found = await repository.list('news', search(['ÜBER']), { order: 'id', desc: false, limit: 10, offset: 0 });
      expect(found.map((row) => row.id)).toEqual(['old']);
      const triggers = old.raw
        .prepare(`select count(*) as n from sqlite_master where type = 'trigger' and tbl_name = 'news'`)
        .get() as { n: number };
      expect(triggers.n).toBe(3);
    } finally {
      await old.close();
    }
  });

  it('drops the FTS5 index of an older database, whose writes then stop touching it (migration 018)', async () => {
    const file = join(dir, 'fts5.sqlite');
    const old = await openDatabase(file);
    try {
      // The search objects as they were before 018: an FTS5 trigram index, and triggers writing to it.
      const index = `"quire_fts:news:"`;
      const pending = `"${searchPendingName('news')}"`;
      const trigger = (event: 'insert' | 'update' | 'delete') => `"${searchTriggerName('news', event)}"`;
      old.raw.exec(`
        drop trigger ${trigger('update')}; drop trigger ${trigger('delete')};
        create virtual table ${index} using fts5(title, slug, tokenize='trigram case_sensitive 1');
        create trigger ${trigger('delete')} after delete on news begin
          delete from ${index} where rowid = old.rowid;
          insert or replace into ${pending}(rowid) values (old.rowid);
        end;
        create trigger ${trigger('update')} after update of "title", "slug" on news begin
          delete from ${index} where rowid = old.rowid;
          insert or replace into ${pending}(rowid) values (new.rowid);
        end;`);
      old.raw
        .prepare(
          `insert into news (id, title, slug, status, published_at, created_at, updated_at) values ('old', 'Vorher Über', 'vorher-uber', 'draft', '2025-01-01 00:00:00', 'x', 'x')`,
        )
        .run();
      const db = old.db as unknown as Kysely<unknown>;
      // Triggers that are not today's are not trusted to note every change: the plain scan answers.
      expect(await old.engine.searchIndex.indexedColumns(db, 'news')).toBeNull();
      await migrate018(db, old.engine);
      const left = old.raw.prepare(`select name from sqlite_master where name like 'quire\\_fts:%' escape '\\'`);
      expect(left.all()).toEqual([]);
      expect(await old.engine.searchIndex.indexedColumns(db, 'news')).toEqual(['title', 'slug']);
      old.raw.prepare(`update news set title = 'Nachher Straße' where id = 'old'`).run();
      const repository = new ContentRepository({ db: old.db, engine: old.engine, runner: old.runner });
      const page = { order: 'id', desc: false, limit: 10, offset: 0 };
      expect((await repository.list('news', search(['STRASSE']), page)).map((row) => row.id)).toEqual([]);
      expect((await repository.list('news', search(['straße']), page)).map((row) => row.id)).toEqual(['old']);
      expect(await repository.count('news', search(['über']))).toBe(0);
    } finally {
      await old.close();
    }
  });

  it('answers through the plain scan what the in-memory index cannot (control characters)', async () => {
    const memory = database.engine.searchIndex.memory;
    const query = {
      db: database.db as unknown as Kysely<unknown>,
      runner: database.runner,
      table: 'news',
      columns: SEARCH_COLUMNS,
      keywords: ['a\u0001'],
      equals: [],
    };
    expect(await memory?.count(query)).toBeNull();
    insertRow('row-control', 'with a\u0001 control', null);
    await expectSameAsScan(['a\u0001']);
    expect(await indexed.count('news', search(['A\u0001']))).toBe(1);
    database.raw.prepare(`delete from news where id = 'row-control'`).run();
  });
});
