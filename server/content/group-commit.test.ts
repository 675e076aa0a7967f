import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentRow } from '../../common/api-contract.js';
import { openDatabase, type SqliteQuireDb } from '../db/database.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { AppError } from '../errors/app-error.js';
import type { ContentType } from './content-type.js';
import { ContentTypeRegistry } from './content-type-registry.js';
import { ContentWrites } from './content-writes.js';
import { RowService } from './row-service.js';

// Group commit is SQLite's (one connection); PostgreSQL keeps a transaction per write.
let dir: string;
let database: SqliteQuireDb;
let rows: RowService;
let writes: ContentWrites;
let news: ContentType;
let articles: ContentType;
let commits: number;
let failNextCommit: boolean;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-group-commit-'));
  database = await openDatabase(join(dir, 'content.sqlite'));
  const registry = new ContentTypeRegistry({ repository: new ContentTypeRepository(database.db) });
  await registry.reload();
  writes = new ContentWrites({ db: database.db, runner: database.runner });
  rows = new RowService({
    db: database.db,
    engine: database.engine,
    editorName: 'tester',
    registry,
    writes,
    runner: database.runner,
  });
  news = registry.requireByTable('news');
  articles = registry.requireByTable('articles');
  commits = 0;
  failNextCommit = false;
  const transaction = database.runner.transaction;
  const commit = transaction.commit;
  transaction.commit = () => {
    commits++;
    if (failNextCommit) {
      failNextCommit = false;
      throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    }
    commit();
  };
});

afterEach(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Row ids committed to the file, read by a connection of its own (it never sees an open transaction). */
function committedIds(table: string): string[] {
  const other = new Database(database.file, { readonly: true });
  try {
    return other.prepare(`select id from ${table} order by id`).pluck().all() as string[];
  } finally {
    other.close();
  }
}

const story = (title: string) => ({ title, status: 'draft', published_at: '2026-01-01 10:00:00' });
const rowId = (n: number) => `0190a1b2-c3d4-7e5f-8a9b-${String(n).padStart(12, '0')}`;

describe('group commit', () => {
  it('runs writes arriving together in one transaction with one commit, each with its own result', async () => {
    const existing = await rows.create(news, story('Existing'), rowId(1));
    commits = 0;
    const results = await Promise.allSettled([
      rows.create(news, story('First'), rowId(2)),
      // Taken by the row committed before, and by the first write of this very batch.
      rows.create(news, story('Taken before'), rowId(1)),
      rows.create(news, story('Taken in the batch'), rowId(2)),
      // Refused inside its write (the relation's target is checked in the transaction).
      rows.create(articles, { ...story('Orphan'), category: rowId(99) }),
      rows.update(news, existing.id, { title: 'Existing, renamed' }),
      rows.update(news, rowId(98), { title: 'Nobody' }),
      rows.create(news, story('Last'), rowId(3)),
    ]);
    expect(commits).toBe(1);
    const outcome = results.map((result) =>
      result.status === 'fulfilled' ? 'ok' : result.reason instanceof AppError ? result.reason.status : result.reason,
    );
    expect(outcome).toEqual(['ok', 409, 409, 400, 'ok', 404, 'ok']);
    expect(committedIds('news')).toEqual([rowId(1), rowId(2), rowId(3)]);
    expect(committedIds('articles')).toEqual([]);
    expect((await rows.get(news, existing.id)).row.title).toBe('Existing, renamed');
    expect((await rows.list(news, listAll())).total).toBe(3);
  });

  it('answers nothing before the commit; reads issued meanwhile see the rows before the batch or after its commit', async () => {
    await rows.create(news, story('Before'), rowId(1));
    // The list's total is in the read cache now.
    expect((await rows.list(news, listAll())).total).toBe(1);
    let answered = false;
    const create = rows.create(news, story('Pending'), rowId(2)).then((row) => {
      answered = true;
      return row;
    });
    // Issued while the write waits for its batch's commit: the cached list answers as before the
    // batch, the get (no cached answer) waits for the commit; neither reads the open transaction.
    const list = rows.list(news, listAll()).then((page) => ({ page, beforeCreate: !answered }));
    const get = rows.get(news, rowId(2));
    expect(answered).toBe(false);
    const [created, got, listed] = await Promise.all([create, get, list]);
    expect(created.id).toBe(rowId(2));
    expect(got.row.id).toBe(rowId(2));
    expect(listed.beforeCreate).toBe(true);
    expect(listed.page.total).toBe(1);
    expect(listed.page.rows.map((row: ContentRow) => row.id)).toEqual([rowId(1)]);
    expect((await rows.list(news, listAll())).total).toBe(2);
    expect(committedIds('news')).toEqual([rowId(1), rowId(2)]);
  });

  it('keeps direct reads (even of a read begun before the batch) out of the open transaction', async () => {
    let resume = () => {};
    const paused = new Promise<void>((resolve) => (resume = resolve));
    const write = writes.run({ type: news, onlyAdds: true }, async (trx) => {
      await sql`insert into news (id, title, slug, status, published_at, created_at, updated_at)
        values (${rowId(1)}, 'Pending', 'pending', 'draft', '2026-01-01 10:00:00', '2026-01-01 10:00:00.000000', '2026-01-01 10:00:00.000000')`.execute(
        trx,
      );
      await paused;
    });
    while (!database.raw.inTransaction) await new Promise((resolve) => setImmediate(resolve));
    const countSql = 'select count(*) as n from news';
    // The connection's own statements would see the uncommitted row...
    expect((await database.runner.all(countSql, []))[0].n).toBe(1);
    // ...the reads' runner waits for the commit instead.
    let seen: unknown = null;
    const read = (writes.reads?.all(countSql, []) ?? Promise.reject(new Error('no runner'))).then(
      ([row]) => (seen = row.n),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toBe(null);
    resume();
    await write;
    await read;
    expect(seen).toBe(1);
    expect(committedIds('news')).toEqual([rowId(1)]);
  });

  it('fails the waiting writes when the write lock cannot be had, and writes again once it is free', async () => {
    database.raw.pragma('busy_timeout = 50');
    const other = new Database(database.file);
    other.exec('begin immediate');
    try {
      const results = await Promise.allSettled([
        rows.create(news, story('Blocked one'), rowId(1)),
        rows.create(news, story('Blocked two'), rowId(2)),
      ]);
      expect(results.map((result) => result.status === 'rejected' && result.reason.code)).toEqual([
        'SQLITE_BUSY',
        'SQLITE_BUSY',
      ]);
    } finally {
      other.exec('rollback');
      other.close();
    }
    expect((await rows.create(news, story('Free again'), rowId(3))).id).toBe(rowId(3));
    expect(committedIds('news')).toEqual([rowId(3)]);
  });

  it('fails writes made after the database was closed instead of retrying them', async () => {
    await database.close();
    const results = await Promise.allSettled([
      rows.create(news, story('Too late'), rowId(1)),
      rows.create(news, story('Too late too'), rowId(2)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });

  it('fails every write of a batch whose commit fails; reads never saw its rows and the cache stays exact', async () => {
    await rows.create(news, story('Kept'), rowId(1));
    expect((await rows.list(news, listAll())).total).toBe(1);
    failNextCommit = true;
    const writes = [
      rows.create(news, story('Lost one'), rowId(2)),
      rows.create(news, story('Lost two'), rowId(3)),
      rows.update(news, rowId(1), { title: 'Lost rename' }),
    ];
    const reads = [
      rows.get(news, rowId(2)).then(
        () => 'found',
        (error: AppError) => error.status,
      ),
    ];
    const listed = rows.list(news, listAll());
    const results = await Promise.allSettled(writes);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const result of results) expect((result as PromiseRejectedResult).reason.code).toBe('SQLITE_IOERR');
    expect(await Promise.all(reads)).toEqual([404]);
    expect((await listed).total).toBe(1);
    expect(committedIds('news')).toEqual([rowId(1)]);
    // Nothing of the failed batch lingers: counts, rows and slugs are those of the file.
    const after = await rows.list(news, listAll());
    expect(after.total).toBe(1);
    expect(after.rows.map((row: ContentRow) => row.title)).toEqual(['Kept']);
    const again = await rows.create(news, story('Lost one'));
    expect(again.slug).toBe('lost-one');
    expect(committedIds('news')).toHaveLength(2);
  });
});

function listAll() {
  return {
    selection: { equals: [] },
    page: { order: 'id', desc: false, limit: 100, offset: 0 },
  } as unknown as Parameters<RowService['list']>[1];
}
