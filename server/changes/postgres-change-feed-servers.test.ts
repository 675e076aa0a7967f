// Engine: PostgreSQL only: two servers write one PostgreSQL database of its own at once, and their
// transactions commit out of order, which one SQLite writer never does.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { before } from '../db/repositories/change-repository.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi as call, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';
import { positionOf } from './change-cursor.js';
import type { ChangeEntry, ChangePage } from './change-feed.js';

/**
 * The change feed of two servers on one PostgreSQL database while both write at once: readers
 * following the feed to its end, again and again, on either server, never see a cursor go
 * backwards, and in the end have seen every revision of every row exactly once, in each row's
 * order, whichever server wrote it and however their transactions interleaved.
 */

const postgres = await postgresForTests();

/** Concurrent writers per server, and rows each writer creates, updates twice and sometimes deletes. */
const WRITERS = 6;
const ROWS_PER_WRITER = 8;

describe.skipIf(!postgres.available)(`the change feed of two servers${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let a: PostgresTestServer;
  let b: PostgresTestServer;

  beforeAll(async () => {
    a = await startPostgresTestServer(database().target);
    b = await startPostgresTestServer(database().target);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  async function ok(server: PostgresTestServer, method: string, path: string, json?: unknown) {
    const { status, body } = await call(server, method, path, json);
    expect(status, `${method} ${path}: ${JSON.stringify(body)}`).toBeLessThan(300);
    return body;
  }

  /** One writer: its rows created, updated twice, every third one deleted, through `server`. */
  async function writer(server: PostgresTestServer, name: string): Promise<void> {
    for (let n = 0; n < ROWS_PER_WRITER; n++) {
      const created = await ok(server, 'POST', '/cms/news', {
        title: `${name} ${n}`,
        status: 'draft',
        published_at: '2026-01-01 10:00:00',
      });
      await ok(server, 'PUT', `/cms/news/${created.id}`, { title: `${name} ${n} again` });
      await ok(server, 'PUT', `/cms/news/${created.id}`, { status: 'published' });
      if (n % 3 === 0) await ok(server, 'DELETE', `/cms/news/${created.id}`);
    }
  }

  /** A reader following the feed: every change it has seen, pages read alternately on both servers. */
  class Follower {
    readonly seen: ChangeEntry[] = [];
    private cursor = '0';
    private turn = 0;

    /** Reads to the end of the feed as it is now. */
    async readToEnd(): Promise<void> {
      for (;;) {
        const server = this.turn++ % 2 === 0 ? a : b;
        const page: ChangePage = await ok(server, 'GET', `/changes?since=${encodeURIComponent(this.cursor)}&limit=7`);
        for (const change of page.changes) {
          const last = this.seen[this.seen.length - 1];
          if (last)
            expect(before(positionOf(last.cursor), positionOf(change.cursor)), 'a cursor went backwards').toBe(true);
          this.seen.push(change);
        }
        if (page.changes.length === 0) return;
        this.cursor = page.next;
      }
    }
  }

  it('has no gaps and no duplicates under concurrent writes from both servers', async () => {
    const followers = [new Follower(), new Follower()];
    let writing = true;
    const writers = Promise.all(
      Array.from({ length: WRITERS * 2 }, (_, n) => writer(n % 2 === 0 ? a : b, `writer ${n}`)),
    ).finally(() => {
      writing = false;
    });
    const following = followers.map(async (follower) => {
      while (writing) await follower.readToEnd();
    });
    await Promise.all([writers, ...following]);
    // Once every write has been answered, the feed settles: the followers read what is left.
    for (const follower of followers) await follower.readToEnd();

    const { rows: revisions } = await sql<{ row_id: string; action: string }>`select row_id, action
      from quire_revisions where table_name = 'news' order by id`.execute(a.database.db);
    expect(revisions.length).toBe(WRITERS * 2 * ROWS_PER_WRITER * 3 + WRITERS * 2 * Math.ceil(ROWS_PER_WRITER / 3));
    const historyOf = (entries: { row_id: string; action: string }[]) => {
      const byRow = new Map<string, string[]>();
      for (const entry of entries) byRow.set(entry.row_id, [...(byRow.get(entry.row_id) ?? []), entry.action]);
      return byRow;
    };
    const expected = historyOf(revisions);
    for (const follower of followers) {
      const news = follower.seen.filter((change) => change.type === 'news');
      expect(new Set(news.map((change) => change.cursor)).size).toBe(news.length);
      expect(news).toHaveLength(revisions.length);
      expect(historyOf(news.map((change) => ({ row_id: change.id, action: change.action })))).toEqual(expected);
    }
    expect(followers[1].seen).toEqual(followers[0].seen);
    expect([...a.errors, ...b.errors]).toEqual([]);
  }, 120_000);

  it('gives the same page on either server, and the same head', async () => {
    const [fromA, fromB] = await Promise.all([ok(a, 'GET', '/changes?limit=50'), ok(b, 'GET', '/changes?limit=50')]);
    expect(fromB).toEqual(fromA);
    expect(await b.services.changes.head()).toBe(await a.services.changes.head());
  });

  it('tells subscribers on one server of a write through the other', async () => {
    const head = await a.services.changes.head();
    let heard: () => void = () => {};
    // Subscribed well before the write: the first look's call (which tells of the head as it was)
    // comes before it, and the write's after it.
    const unsubscribe = a.services.changes.subscribe(() => heard());
    try {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const hearing = new Promise<void>((resolve) => {
        heard = resolve;
      });
      await ok(b, 'POST', '/cms/news', { title: 'Heard', status: 'draft', published_at: '2026-01-01 10:00:00' });
      await hearing;
      const page = await a.services.changes.read({ since: head, limit: 10 });
      expect(page.changes.map((change) => change.action)).toEqual(['create']);
    } finally {
      unsubscribe();
    }
  });
});
