import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededTitle } from '../../test-support/search-scan.js';
import { openDatabase, type SqliteQuireDb } from '../database.js';
import type { MemorySearchQuery } from '../engine.js';
import { ContentRepository, type RowSelection } from '../repositories/content-repository.js';
import type { StatementRunner } from '../statement-runner.js';
import { memoryIndexOf } from './sqlite-memory-search-state.js';

const COLUMNS = ['title', 'slug'];
const WORDS = [
  'alpha',
  'Über',
  'ÜBER',
  'café',
  'station',
  'election',
  'jalapeño',
  'İstanbul',
  'STRAẞE',
  '😀',
  'ab',
  'x',
];
const ROWS = 5000;

let dir: string;
let database: SqliteQuireDb;
let reader: ContentRepository;
let plain: ContentRepository;
const titles: string[] = [];

function insert(id: string, title: string | null, slug: string | null): void {
  database.raw
    .prepare(
      `insert into news (id, title, slug, status, published_at, created_at, updated_at) values (?, ?, ?, ?, '2025-01-01 00:00:00', 'x', 'x')`,
    )
    .run(id, title, slug, id.endsWith('7') ? 'published' : 'draft');
}

const search = (keywords: string[], equals: RowSelection['equals'] = []): RowSelection => ({
  equals,
  search: { columns: COLUMNS, keywords },
});

function memoryQuery(keywords: string[]): MemorySearchQuery {
  const db = database.db as unknown as Kysely<unknown>;
  return { db, runner: database.runner, table: 'news', columns: COLUMNS, keywords, equals: [] };
}

/** Waits until the in-memory index answers (it builds in the background after the first search). */
async function untilMemoryAnswers(): Promise<void> {
  const memory = database.engine.searchIndex.memory;
  if (!memory) throw new Error('the SQLite engine has an in-memory search');
  for (let i = 0; i < 2000; i++) {
    if ((await memory.count(memoryQuery(['a']))) !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the in-memory index never became ready');
}

async function expectSameAsScan(keywords: string[], equals: RowSelection['equals'] = []): Promise<void> {
  const selection = search(keywords, equals);
  const expected = (await plain.listByScan('news', selection)).map((row) => row.id);
  const label = JSON.stringify(keywords);
  expect(await reader.count('news', selection), label).toBe(expected.length);
  // The repository without a runner plans the plain scan, with the same order and window.
  for (const page of [
    { order: 'id', desc: false, limit: 20, offset: 0 },
    { order: 'id', desc: true, limit: 7, offset: 30 },
    { order: 'title', desc: false, limit: 20, offset: 5 },
    { order: 'published_at', desc: true, limit: 1000, offset: 0 },
  ]) {
    const rows = await reader.list('news', selection, page);
    expect(rows, `${label} ${JSON.stringify(page)}`).toEqual(await plain.list('news', selection, page));
  }
}

const keyword = fc.oneof(
  fc.constantFrom(
    'a',
    'ü',
    'Ü',
    'ab',
    'é',
    'ñ',
    'i̇',
    'ss',
    'ß',
    '😀',
    ' 1',
    '12',
    'über',
    'ÜBER',
    'tion',
    'caf',
    'alpha ü',
    'x',
  ),
  fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 8 })).map(([pick, start, length]) => {
    const title = titles[pick % titles.length] ?? 'alpha';
    const from = start % title.length;
    return title.slice(from, from + length);
  }),
  fc.string({ minLength: 1, maxLength: 3 }),
);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-memory-search-'));
  database = await openDatabase(join(dir, 'content.sqlite'));
  reader = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
  plain = new ContentRepository({ db: database.db, engine: database.engine });
  database.raw.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const title = seededTitle(WORDS, i);
      titles.push(title);
      insert(`row-${String(i).padStart(5, '0')}`, i % 11 === 0 ? null : title, i % 5 === 0 ? null : `slug-${i}-uber`);
    }
  })();
});

afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

// Builds the index over thousands of rows several times: 20 s was too little on a loaded machine.
describe('the in-memory search index on SQLite', { timeout: 120_000 }, () => {
  it('answers the first searches itself, once the one build they wait for is done', async () => {
    const memory = database.engine.searchIndex.memory;
    const expected = (await plain.listByScan('news', search(['ab']))).length;
    // Searches arriving before the index exists wait for its build (all for the same one) rather
    // than being answered through SQL, which at 1M rows kept the build from ever finishing.
    const counts = await Promise.all(Array.from({ length: 8 }, () => memory?.count(memoryQuery(['ab']))));
    expect(counts).toEqual(Array(8).fill(expected));
    await expectSameAsScan(['ab']);
  });

  it('agrees with the plain scan on keywords of every length, 1 and 2 characters included', async () => {
    await untilMemoryAnswers();
    await fc.assert(
      fc.asyncProperty(fc.array(keyword, { minLength: 1, maxLength: 2 }), async (keywords) => {
        const trimmed = keywords.map((k) => k.trim()).filter((k) => k !== '');
        if (trimmed.length === 0) return;
        await expectSameAsScan(trimmed);
      }),
      { numRuns: 100, seed: 13 },
    );
  });

  it('finds Über for ÜBER, and words only the slug holds', async () => {
    await untilMemoryAnswers();
    expect(await reader.count('news', search(['ÜBER']))).toBeGreaterThan(0);
    for (const keyword of ['ÜBER', 'über', 'U\u0308BER', 'uber', '-uber', 'slug-12']) await expectSameAsScan([keyword]);
  });

  it('combines a search with other conditions', async () => {
    await untilMemoryAnswers();
    for (const keyword of ['a', 'ü', 'station', 'ab']) {
      await expectSameAsScan([keyword], [{ column: 'status', value: 'published' }]);
    }
  });

  it('follows inserts, updates, deletes and flushes on the same connection', async () => {
    await untilMemoryAnswers();
    insert('row-new-1', 'Neue ÜBERSICHT qq', 'neue-ubersicht');
    await expectSameAsScan(['qq']);
    database.raw.prepare(`update news set title = 'Schön KAFFEE qz' where id = 'row-00003'`).run();
    database.raw.prepare(`update news set slug = 'renamed-qy' where id = 'row-00004'`).run();
    database.raw.prepare(`delete from news where id = 'row-00006'`).run();
    for (const keyword of ['qq', 'qz', 'qy', 'kaffee', titles[3].slice(0, 5), titles[6], 'q', 'ü']) {
      await expectSameAsScan([keyword]);
    }
    await database.db
      .transaction()
      .execute((trx) => new ContentRepository({ db: trx, engine: database.engine }).flushSearchIndex('news', COLUMNS));
    database.raw.prepare(`update news set title = 'after flush qx' where id = 'row-00008'`).run();
    database.raw.prepare(`delete from news where id = 'row-00009'`).run();
    for (const keyword of ['qq', 'qz', 'qy', 'qx', titles[8].slice(0, 7), titles[9], 'q'])
      await expectSameAsScan([keyword]);
    expect(await database.engine.searchIndex.memory?.count(memoryQuery(['qx']))).toBe(1);
  });

  it('answers a search that comes during a write once the write has committed, not through SQL', async () => {
    await untilMemoryAnswers();
    const memory = database.engine.searchIndex.memory;
    let counted: Promise<number | null> | undefined;
    // As a batch of writes does (content-writes.ts): Kysely's connection held, a transaction open.
    await database.db.connection().execute(async () => {
      database.raw.exec('begin immediate');
      insert('row-during-write', 'written during qv', 'during-qv');
      counted = memory?.count(memoryQuery(['qv']));
      await new Promise((resolve) => setTimeout(resolve, 20));
      database.raw.exec('commit');
    });
    // Null would have sent it to the plain scan.
    expect(await counted).toBe(1);
    await expectSameAsScan(['qv']);
  });

  it('puts a page together again when this connection changed rows between its matches and its rows', async () => {
    await untilMemoryAnswers();
    const memory = database.engine.searchIndex.memory;
    const page = { order: 'id', desc: false, limit: 20, offset: 0 };
    const before = (await memory?.list(memoryQuery(['election']), page)) ?? [];
    const changed = before[0]?.id as string;
    expect(changed).toBeDefined();
    // The same connection's runner, which changes the first match's title once, just before the
    // page's rows are read (as a write committed between the two statements would).
    let wrote = false;
    const runner: StatementRunner = {
      ...database.runner,
      wraps: database.runner,
      all: async (text, parameters) => {
        if (!wrote && text.includes('json_each')) {
          wrote = true;
          database.raw.prepare('update news set title = ? where id = ?').run('retitled, no longer matching', changed);
        }
        return database.runner.all(text, parameters);
      },
    };
    const after = (await memory?.list({ ...memoryQuery(['election']), runner }, page)) ?? [];
    expect(wrote).toBe(true);
    expect(after.map((row) => row.id)).not.toContain(changed);
    expect(after.map((row) => row.id)).toEqual(
      (await plain.list('news', search(['election']), page)).map((row) => row.id),
    );
  });

  it('pages in id order as the plain scan does when ids stop following rowids', async () => {
    await untilMemoryAnswers();
    // So far ids grew with rowids: pages in id order were slices of the matches by rowid.
    await expectSameAsScan(['a']);
    // No write of the server changes an id (a system field); a row given one anew is a new row, so
    // the id changes here with a search column, which notes the row for the index.
    database.raw.prepare(`update news set id = 'zzz-moved', title = 'alpha moved qm' where id = 'row-00002'`).run();
    for (const keyword of ['a', 'qm', 'alpha']) await expectSameAsScan([keyword]);
    insert('aaa-before-all', 'alpha ordered qv', null);
    for (const keyword of ['qv', 'a', 'alpha']) await expectSameAsScan([keyword]);
  });

  it('is rebuilt after another connection commits, answering correctly meanwhile', async () => {
    await untilMemoryAnswers();
    const other = new Database(join(dir, 'content.sqlite'));
    other.function('quire_fold', (value: unknown) =>
      typeof value === 'string' ? value.normalize('NFC').toLowerCase() : value,
    );
    try {
      other.prepare(`update news set title = 'from elsewhere zq' where id = 'row-00010'`).run();
    } finally {
      other.close();
    }
    // The next search waits for the rebuild and is answered by it.
    expect(await database.engine.searchIndex.memory?.count(memoryQuery(['zq']))).toBe(1);
    await expectSameAsScan(['zq']);
  });

  it('is rebuilt when the schema changes (search columns change with it)', async () => {
    await untilMemoryAnswers();
    database.raw.exec('create index news_test_idx on news(status)');
    // Answered by the index rebuilt for the new schema (the search waits for it).
    const expected = (await plain.listByScan('news', search(['a']))).length;
    expect(await database.engine.searchIndex.memory?.count(memoryQuery(['a']))).toBe(expected);
    await expectSameAsScan(['a']);
    // Columns the search triggers do not follow are left to SQL.
    const unfollowed = { ...memoryQuery(['a']), columns: ['title', 'status'] };
    expect(await database.engine.searchIndex.memory?.count(unfollowed)).toBeNull();
    // Some of those they follow (a locale's search columns) have an index of their own beside the table's.
    const onlyTitle = { ...memoryQuery(['a']), columns: ['title'] };
    const titled = await plain.listByScan('news', { equals: [], search: { columns: ['title'], keywords: ['a'] } });
    expect(await database.engine.searchIndex.memory?.count(onlyTitle)).toBe(titled.length);
    expect(memoryIndexOf(database.runner, 'news', ['title'])?.ready).toBe(true);
    expect(memoryIndexOf(database.runner, 'news', COLUMNS)?.ready).toBe(true);
  });

  it('is built again in the background once many rows were written since its build, answering meanwhile', async () => {
    await untilMemoryAnswers();
    const memory = database.engine.searchIndex.memory;
    const rows = Number(database.raw.prepare('select count(*) from news').pluck().get());
    // Rows written after the build (each held apart) past a fifth of all rows, plus a thousand.
    const written = Math.ceil(rows / 4) + 1300;
    database.raw.transaction(() => {
      for (let i = 0; i < written; i++) insert(`worn-${String(i).padStart(6, '0')}`, `Worn row ${i} qk`, null);
    })();
    // Answered at once by the index in use, which takes the rows in...
    expect(await memory?.count(memoryQuery(['qk']))).toBe(written);
    expect(memoryIndexOf(database.runner, 'news')?.writtenSinceBuild).toBeGreaterThanOrEqual(written);
    // ...while a build from the table runs behind it and takes its place once ready.
    for (let i = 0; i < 2000 && (memoryIndexOf(database.runner, 'news')?.writtenSinceBuild ?? 0) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await memory?.count(memoryQuery(['qk']));
    }
    expect(memoryIndexOf(database.runner, 'news')).toMatchObject({ ready: true, loaded: false, writtenSinceBuild: 0 });
    // Rows written while it was built are in it too.
    insert('worn-after', 'Worn after qk', null);
    expect(await memory?.count(memoryQuery(['qk']))).toBe(written + 1);
    for (const keyword of ['qk', 'a', 'worn row 12']) await expectSameAsScan([keyword]);
  });

  it('counts and pages many matches with other conditions by walking the order (more than it lists to SQL)', async () => {
    await untilMemoryAnswers();
    database.raw.transaction(() => {
      for (let i = 0; i < 52_000; i++)
        insert(`bulk-${String(i).padStart(6, '0')}7`, `Bulk row ${i} ${WORDS[i % WORDS.length]}`, null);
    })();
    const published = [{ column: 'status', value: 'published' }];
    for (const keyword of ['bulk', 'ü']) {
      await expectSameAsScan([keyword], published);
      await expectSameAsScan([keyword]);
    }
    expect(await database.engine.searchIndex.memory?.count(memoryQuery(['bulk']))).toBe(52_000);
  });

  // Last: it replaces the table the tests above share.
  it('is not used once this connection has rebuilt its table, rowids renumbered', async () => {
    await untilMemoryAnswers();
    await expectSameAsScan(['election']);
    // Through Kysely, as content-type changes run their statements: the rows copied in reverse
    // rowid order, the old table replaced (searches only read the rows: nothing else changed).
    for (const statement of [
      sql`create table news_rebuilt as select * from news order by rowid desc`,
      sql`drop table news`,
      sql`alter table news_rebuilt rename to news`,
    ])
      await statement.execute(database.db);
    for (const keyword of ['election', 'ü', 'bulk']) await expectSameAsScan([keyword]);
  });
});
