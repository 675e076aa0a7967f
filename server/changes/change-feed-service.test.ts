import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRepository, type NewChange } from '../db/repositories/change-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';
import { testEngine } from '../test-support/test-server.js';
import { ChangeFeedService } from './change-feed-service.js';

/**
 * The change feed over a database of the suite's engine, below HTTP: the purge stops at the first
 * change still kept and moves the mark only past what it removed, and on PostgreSQL a change whose
 * transaction is still open holds back the changes committed after it, so none is ever skipped.
 */

let opened: OpenTestDatabase;
let db: Kysely<QuireDatabase>;
let clock = new Date('2026-05-01T12:00:00Z');
let feed: ChangeFeedService;

const change = (rowId: string, at: string, table = 'news'): NewChange => ({
  at,
  table_name: table,
  row_id: rowId,
  action: 'update',
  changed_by: null,
  locales: null,
});

async function append(...changes: NewChange[]): Promise<void> {
  await db.transaction().execute((trx) => new ChangeRepository(trx, opened.database.engine).append(changes));
}

async function ids(since = '0'): Promise<string[]> {
  return (await feed.read({ since, limit: 1000 })).changes.map((entry) => entry.id);
}

beforeAll(async () => {
  opened = await openTestDatabase();
  db = opened.database.db;
  feed = new ChangeFeedService({ db, engine: opened.database.engine, days: 10, now: () => clock });
});
afterAll(async () => {
  feed?.stop();
  await opened?.dispose();
});

describe('the change feed service', () => {
  it('reads by type, pages and tells where it is', async () => {
    expect(await feed.head()).toBe('0');
    expect(await feed.read({ since: '0', limit: 10 })).toEqual({ changes: [], next: '0' });
    await append(change('a', '2026-04-01 00:00:00.000000'), change('b', '2026-04-02 00:00:00.000000', 'pages'));
    await append(change('c', '2026-04-25 00:00:00.000000'));
    expect(await ids()).toEqual(['a', 'b', 'c']);
    expect((await feed.read({ since: '0', limit: 10, types: ['pages'] })).changes.map((entry) => entry.id)).toEqual([
      'b',
    ]);
    expect((await feed.read({ since: '0', limit: 10, types: [] })).changes).toEqual([]);
    const first = await feed.read({ since: '0', limit: 1 });
    expect(first.changes.map((entry) => entry.id)).toEqual(['a']);
    expect(await ids(first.next)).toEqual(['b', 'c']);
    const all = await feed.read({ since: '0', limit: 10 });
    expect(await feed.head()).toBe(all.next);
    expect(all.changes[0]).toEqual({
      cursor: first.next,
      type: 'news',
      id: 'a',
      action: 'update',
      at: '2026-04-01T00:00:00.000Z',
      by: null,
    });
  });

  it('purges up to the first change still kept, and a cursor before what it removed expires', async () => {
    // Recorded late but dated early: the purge must not take it while an earlier-placed change stays.
    await append(change('d', '2026-04-28 00:00:00.000000'), change('e', '2026-04-10 00:00:00.000000'));
    const before = await feed.read({ since: '0', limit: 10 });
    const cursorOf = (id: string) => before.changes.find((entry) => entry.id === id)?.cursor as string;
    // Kept since 2026-04-21: a and b go; c is the first kept, so d and e stay with it.
    expect(await feed.purge()).toBe(2);
    expect(await ids()).toEqual(['c', 'd', 'e']);
    expect(await feed.purge()).toBe(0);
    const expired = await feed.read({ since: cursorOf('a'), limit: 10 }).catch((error: unknown) => error);
    expect(expired).toBeInstanceOf(AppError);
    expect((expired as AppError).code).toBe('cursor_expired');
    expect((expired as AppError).status).toBe(410);
    // The last change removed is where a reader that had it resumes, missing nothing.
    expect(await ids(cursorOf('b'))).toEqual(['c', 'd', 'e']);
    // Everything kept can go; the feed's cursors stay valid after it.
    clock = new Date('2026-06-01T12:00:00Z');
    expect(await feed.purge()).toBe(3);
    expect(await ids()).toEqual([]);
    expect(await ids(cursorOf('e'))).toEqual([]);
    expect(await feed.head()).toBe('0');
    await append(change('f', '2026-06-01 12:00:00.000000'));
    expect(await ids(cursorOf('e'))).toEqual(['f']);
  });

  it('refuses a cursor past every change given as bad_cursor', async () => {
    const { next } = await feed.read({ since: '0', limit: 10 });
    const [tx, id] = Buffer.from(next, 'base64url').toString('utf8').split('.');
    const beyond = Buffer.from(`${tx}.${Number(id) + 5}`, 'utf8').toString('base64url');
    const error = await feed.read({ since: beyond, limit: 10 }).catch((caught: unknown) => caught);
    expect((error as AppError).code).toBe('bad_cursor');
  });

  it.skipIf(testEngine() === 'sqlite')(
    'holds back changes committed after one whose transaction is still open (PostgreSQL: SQLite has one writer)',
    async () => {
      const start = (await feed.read({ since: '0', limit: 1000 })).next;
      let commitFirst: () => void = () => {};
      const firstOpen = new Promise<void>((resolve) => {
        commitFirst = resolve;
      });
      let firstRecorded: () => void = () => {};
      const recorded = new Promise<void>((resolve) => {
        firstRecorded = resolve;
      });
      const first = db.transaction().execute(async (trx) => {
        await new ChangeRepository(trx, opened.database.engine).append([change('slow', '2026-06-01 12:00:01.000000')]);
        firstRecorded();
        await firstOpen;
      });
      await recorded;
      await append(change('quick', '2026-06-01 12:00:02.000000'));
      // The quick one committed, but the slow one, begun first, may still come before it.
      expect(await ids(start)).toEqual([]);
      commitFirst();
      await first;
      expect(await ids(start)).toEqual(['slow', 'quick']);
    },
  );
});
