import { existsSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemorySearchIndex } from '../../search/search-memory-index.js';
import { openDatabase, type SqliteQuireDb } from '../database.js';
import { searchPendingName } from '../queries/internal-names.js';
import { ContentRepository, type RowSelection } from '../repositories/content-repository.js';
import { memoryIndexOf } from './sqlite-memory-search-state.js';
import { saveSnapshot, snapshotFolder } from './sqlite-search-snapshot.js';

const COLUMNS = ['title', 'slug'];
const WORDS = ['alpha', 'Über', 'café', 'station', 'jalapeño', 'STRAẞE', '😀', 'x'];
const KEYWORDS = [['a'], ['über'], ['caf'], ['tion'], ['ss'], ['😀'], ['alpha x'], ['zulu'], ['-1'], ['7']];

let dir: string;
let file: string;
let open: SqliteQuireDb | null = null;
/** Why saved indexes were not read back, as the database told (see OpenSqliteOptions.savedSearchIndexes). */
let unused: string[] = [];

const search = (keywords: string[]): RowSelection => ({ equals: [], search: { columns: COLUMNS, keywords } });

function titleOf(seed: number): string {
  const words: string[] = [];
  let s = seed;
  for (let i = 0; i < 2 + (seed % 3); i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    words.push(WORDS[s % WORDS.length]);
  }
  return `${words.join(' ')} ${seed}`;
}

/** Rows written by another connection (a script, another process): the search triggers note them. */
function elsewhere(write: (raw: Database.Database) => void): void {
  const raw = new Database(file);
  try {
    write(raw);
  } finally {
    raw.close();
  }
}

function insert(raw: Database.Database, n: number, title: string | null): void {
  raw
    .prepare(
      `insert into news (id, title, slug, status, published_at, created_at, updated_at) values (?, ?, ?, 'draft', '2025-01-01 00:00:00', 'x', 'x')`,
    )
    .run(`row-${String(n).padStart(5, '0')}`, title, `slug-${n}`);
}

async function start(): Promise<SqliteQuireDb> {
  open = await openDatabase(file, {
    savedSearchIndexes: { minRows: 100, onUnused: (table, reason) => unused.push(`${table}: ${reason}`) },
  });
  return open;
}

async function stop(): Promise<void> {
  await open?.close();
  open = null;
}

/** Searches until the in-memory index answers (searches wait for its build or load). */
async function ready(database: SqliteQuireDb): Promise<{ ready: boolean; loaded: boolean }> {
  const reader = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
  await reader.count('news', search(['a']));
  const state = memoryIndexOf(database.runner, 'news');
  if (!state?.ready) throw new Error('the in-memory index did not answer');
  return { ready: state.ready, loaded: state.loaded };
}

/** Every keyword's count and first page equal the plain scan's. */
async function expectSameAsScan(database: SqliteQuireDb): Promise<void> {
  const reader = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
  const plain = new ContentRepository({ db: database.db, engine: database.engine });
  for (const keywords of KEYWORDS) {
    const expected = (await plain.listByScan('news', search(keywords))).map((row) => row.id);
    expect(await reader.count('news', search(keywords)), keywords.join()).toBe(expected.length);
    const page = { order: 'id', desc: false, limit: 50, offset: 0 };
    const rows = await reader.list('news', search(keywords), page);
    expect(
      rows.map((row) => row.id),
      keywords.join(),
    ).toEqual(expected.slice(0, 50));
  }
}

const savedFiles = () => (existsSync(snapshotFolder(file)) ? readdirSync(snapshotFolder(file)) : []);

beforeEach(async () => {
  unused = [];
  dir = mkdtempSync(join(tmpdir(), 'quire-search-snapshot-'));
  file = join(dir, 'content.sqlite');
  const database = await start();
  database.raw.transaction(() => {
    for (let n = 0; n < 3000; n++) insert(database.raw, n, n % 13 === 0 ? null : titleOf(n));
  })();
  // As the server's search flush would: the build reads these rows itself (rows still noted after
  // it are read again, and are then held as written since the build).
  database.raw.prepare(`delete from "${searchPendingName('news')}"`).run();
  await ready(database);
  // Rows written after the build keep all their columns' text in the index (as the server's writes).
  const writer = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
  database.raw.prepare(`update news set title = 'zulu station' where id = 'row-00007'`).run();
  database.raw.prepare(`delete from news where id = 'row-00008'`).run();
  await writer.count('news', search(['zulu']));
  await stop();
});

afterEach(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('saved in-memory search indexes', { timeout: 60_000 }, () => {
  it('are written at a clean stop and read back at the next start, answering exactly as the plain scan', async () => {
    expect(savedFiles()).toEqual([`${Buffer.from('news').toString('hex')}.bin`]);
    const database = await start();
    expect(await ready(database)).toEqual({ ready: true, loaded: true });
    // Deleted as it was read: a crash from now on leaves no file to describe a database that moved on.
    expect(savedFiles()).toEqual([]);
    expect(unused).toEqual([]);
    await expectSameAsScan(database);
    // The loaded index goes on taking writes.
    database.raw.prepare(`update news set title = 'zulu café' where id = 'row-00011'`).run();
    insert(database.raw, 5000, 'alpha zulu');
    database.raw.prepare(`delete from news where id = 'row-00012'`).run();
    await expectSameAsScan(database);
  });

  it('take in the rows another connection changed while the server was stopped', async () => {
    elsewhere((raw) => {
      insert(raw, 4000, 'zulu alpha');
      raw.prepare(`update news set title = 'Café zulu' where id = 'row-00021'`).run();
      raw.prepare(`update news set slug = 'zulu-slug' where id = 'row-00022'`).run();
      raw.prepare(`delete from news where id = 'row-00023'`).run();
    });
    const database = await start();
    expect(await ready(database)).toEqual({ ready: true, loaded: true });
    await expectSameAsScan(database);
  });

  it('are not used once the pending table was emptied (a search flush elsewhere): the index is built again', async () => {
    elsewhere((raw) => {
      insert(raw, 4000, 'zulu alpha');
      raw.prepare(`delete from "${searchPendingName('news')}"`).run();
    });
    const database = await start();
    expect(await ready(database)).toEqual({ ready: true, loaded: false });
    expect(unused).toEqual(['news: a search flush ran on the database after it was saved']);
    expect(savedFiles()).toEqual([]);
    await expectSameAsScan(database);
  });

  it('take in rows written since with more distinct words than a vocabulary keeps, answering exactly', async () => {
    // 140,000 distinct words (a vocabulary keeps 131,072), in rows another process wrote: they go to
    // the overlay, which keeps their whole text, so the index read back still answers them.
    elsewhere((raw) =>
      raw.transaction(() => {
        for (let n = 0; n < 140; n++) {
          const words = Array.from({ length: 1000 }, (_, k) => `w${(n * 1000 + k).toString(36)}`);
          insert(raw, 6000 + n, `${words.join(' ')} zulu`);
        }
      })(),
    );
    const database = await start();
    expect(await ready(database)).toEqual({ ready: true, loaded: true });
    expect(unused).toEqual([]);
    await expectSameAsScan(database);
    const reader = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
    const plain = new ContentRepository({ db: database.db, engine: database.engine });
    for (const keywords of [['w2s'], ['w2s w2t'], ['w1'], ['zulu'], ['w2s', 'zulu']]) {
      const expected = (await plain.listByScan('news', search(keywords))).length;
      expect(expected, keywords.join()).toBeGreaterThan(0);
      expect(await reader.count('news', search(keywords)), keywords.join()).toBe(expected);
    }
  });

  it('are not used after a schema change, nor when the file is damaged or cut short', async () => {
    elsewhere((raw) => raw.exec('create table other (a)'));
    let database = await start();
    expect(await ready(database)).toEqual({ ready: true, loaded: false });
    expect(unused).toEqual(['news: the database schema changed since it was saved']);
    await expectSameAsScan(database);
    await stop();

    const [name] = savedFiles();
    const path = join(snapshotFolder(file), name);
    truncateSync(path, 5000);
    database = await start();
    expect(await ready(database)).toEqual({ ready: true, loaded: false });
    await expectSameAsScan(database);
    await stop();

    writeFileSync(path, 'not an index');
    database = await start();
    expect(await ready(database)).toEqual({ ready: true, loaded: false });
    await expectSameAsScan(database);
    expect(unused.slice(1)).toEqual([
      'news: its file is damaged or of another version',
      'news: its file is damaged or of another version',
    ]);
  });

  it('are written however many rows were written since the build: the next start answers with it and builds it again behind it', async () => {
    const more = (database: SqliteQuireDb, from: number, count: number) =>
      database.raw.transaction(() => {
        for (let n = from; n < from + count; n++) insert(database.raw, n, `alpha ${n}`);
      })();
    let database = await start();
    expect(await ready(database)).toEqual({ ready: true, loaded: true });
    // beforeEach changed row 7 (set aside, and held in the overlay) and deleted row 8 (set aside).
    expect(memoryIndexOf(database.runner, 'news')?.writtenSinceBuild).toBe(3);
    // 1,003 of 3,999 rows written since the build, more than a quarter: a stop saved nothing then,
    // and the next start's first search waited for a whole build. Below a fifth and a thousand, so
    // the searches here do not build it again.
    more(database, 6000, 1000);
    await expectSameAsScan(database);
    expect(memoryIndexOf(database.runner, 'news')?.writtenSinceBuild).toBe(1003);
    await stop();
    expect(savedFiles()).toHaveLength(1);

    database = await start();
    expect(await ready(database)).toEqual({ ready: true, loaded: true });
    expect(memoryIndexOf(database.runner, 'news')?.writtenSinceBuild).toBe(1003);
    await expectSameAsScan(database);
    // 2,003 of 4,999, past a fifth and a thousand, and no search: saved as it is.
    more(database, 8000, 1000);
    await stop();
    expect(savedFiles()).toHaveLength(1);

    database = await start();
    const reader = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
    // Answered at once by the saved index...
    expect(await reader.count('news', search(['alpha']))).toBeGreaterThanOrEqual(2000);
    expect(memoryIndexOf(database.runner, 'news')).toMatchObject({
      ready: true,
      loaded: true,
      writtenSinceBuild: 2003,
    });
    await expectSameAsScan(database);
    // ...while that search started a build from the table, which takes its place once ready.
    for (let i = 0; i < 2000 && (memoryIndexOf(database.runner, 'news')?.writtenSinceBuild ?? 0) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await reader.count('news', search(['alpha']));
    }
    expect(memoryIndexOf(database.runner, 'news')).toMatchObject({ ready: true, loaded: false, writtenSinceBuild: 0 });
    await expectSameAsScan(database);
  });

  it('are not written for tables below the size given, nor when another connection committed meanwhile', async () => {
    let database = await start();
    await ready(database);
    await open?.close();
    open = await openDatabase(file, { savedSearchIndexes: { minRows: 10_000 } });
    database = open;
    await ready(database);
    await stop();
    expect(savedFiles()).toEqual([]);

    database = await start();
    const index = new MemorySearchIndex(2);
    index.seal();
    const token = database.runner.externalChangeToken();
    elsewhere((raw) => insert(raw, 4000, 'zulu'));
    const db = database.db as unknown as Kysely<unknown>;
    const saved = { index, columns: COLUMNS, idOrderHolds: true };
    expect(await saveSnapshot(db, database.runner, snapshotFolder(file), 'news', saved, token)).toBe(false);
    expect(savedFiles()).toEqual([]);
  });
});
