// Engine: PostgreSQL only: PostgreSQL's kept list counts, with two servers writing to a database of its own.

import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { poolConfig } from '../db/postgres/postgres-connection.js';
import { builtForTests, rowsCheckedForTests, valueTalliesForTests } from '../db/postgres/postgres-memory-search.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi as call, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';

/**
 * PostgreSQL keeps list counts in memory with their table's change number: two servers
 * on one database, and the counts one keeps are never stale after the other's write, whatever the
 * write (create, update that moves a row between filters, delete, concurrent creates, a column
 * dropped and added again, the type deleted and made again). Once a table's in-memory index is
 * held, its select columns' tallies give those counts without a COUNT (postgres-value-columns.ts).
 */

const postgres = await postgresForTests();

const PUBLISHED = '/cms/news?filter=status%3Dpublished';

const dbOf = (server: PostgresTestServer) => server.database.db as unknown as Kysely<unknown>;

/** The counts B gives for news, and for its published rows. */
async function countsOn(server: PostgresTestServer) {
  const all = await call(server, 'GET', '/cms/news?limit=1');
  const published = await call(server, 'GET', `${PUBLISHED}&limit=1`);
  expect(all.status).toBe(200);
  expect(published.status).toBe(200);
  return { total: all.body.total, published: published.body.filtered, totalAgain: published.body.total };
}

describe.skipIf(!postgres.available)(`counts kept on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let a: PostgresTestServer;
  let b: PostgresTestServer;
  let direct: pg.Client;

  beforeAll(async () => {
    a = await startPostgresTestServer(database().target);
    b = await startPostgresTestServer(database().target);
    direct = new pg.Client(poolConfig(database().target));
    await direct.connect();
  });
  afterAll(async () => {
    await direct?.end();
    await Promise.all([a?.close(), b?.close()]);
  });

  /** What the table holds, counted directly. */
  async function truth() {
    const { rows } = await direct.query(
      `select count(*)::int as total, (count(*) filter (where status = 'published'))::int as published from news`,
    );
    return { total: rows[0].total, published: rows[0].published, totalAgain: rows[0].total };
  }

  const create = async (server: PostgresTestServer, title: string, status: string) => {
    const created = await call(server, 'POST', '/cms/news', { title, status, published_at: '2026-01-01 10:00:00' });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };

  it('are exact on one server after every kind of write through the other', async () => {
    expect(await countsOn(b)).toEqual({ total: 0, published: 0, totalAgain: 0 });
    // Both hold the index from here on: their counts come from its tallies (once a check has found
    // no row without a search row, which a server runs in the background: run here and awaited, so
    // that no count below depends on when it ends).
    await Promise.all([builtForTests(dbOf(a), 'news'), builtForTests(dbOf(b), 'news')]);
    await Promise.all([rowsCheckedForTests(dbOf(a), 'news'), rowsCheckedForTests(dbOf(b), 'news')]);
    const first = await create(a, 'First', 'published');
    expect(await countsOn(b)).toEqual({ total: 1, published: 1, totalAgain: 1 });
    const second = await create(a, 'Second', 'draft');
    expect(await countsOn(b)).toEqual({ total: 2, published: 1, totalAgain: 2 });
    // An update moves a row into the filter: total unchanged, filtered not.
    expect((await call(a, 'PUT', `/cms/news/${second}`, { status: 'published' })).status).toBe(200);
    expect(await countsOn(b)).toEqual({ total: 2, published: 2, totalAgain: 2 });
    expect((await call(a, 'PUT', `/cms/news/${first}`, { status: 'draft' })).status).toBe(200);
    expect(await countsOn(b)).toEqual({ total: 2, published: 1, totalAgain: 2 });
    // A get's total too.
    expect((await call(b, 'GET', `/cms/news/${first}`)).body.total).toBe(2);
    expect((await call(a, 'DELETE', `/cms/news/${first}`)).status).toBe(200);
    expect(await countsOn(b)).toEqual({ total: 1, published: 1, totalAgain: 1 });
    expect((await call(b, 'GET', `/cms/news/${second}`)).body.total).toBe(1);
    // Both servers write and read at once; once all is answered, each counts what is there.
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => create(i % 2 ? a : b, `Busy ${i}`, i % 3 ? 'draft' : 'published')),
      ...Array.from({ length: 12 }, (_, i) => countsOn(i % 2 ? b : a)),
    ]);
    expect(await countsOn(a)).toEqual(await truth());
    expect(await countsOn(b)).toEqual(await truth());
    expect(await truth()).toEqual({ total: 13, published: 5, totalAgain: 13 });
    // Every write moved the change number: each count after one was a tally, not kept.
    expect(valueTalliesForTests(dbOf(a), 'news')).toBeGreaterThan(2);
    expect(valueTalliesForTests(dbOf(b), 'news')).toBeGreaterThan(10);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('follow a column dropped and added again, and a type deleted and made again, through the other', async () => {
    const before = await countsOn(b);
    expect(before.published).toBeGreaterThan(0);
    const type = (await call(a, 'GET', '/cms-content/news')).body;
    // Added again as optional: existing rows get no value.
    const columns = (type.columns as { name: string; required: boolean }[]).map((column) =>
      column.name === 'status' ? { ...column, required: false } : column,
    );
    const without = columns.filter((column) => column.name !== 'status');
    expect((await call(a, 'PUT', '/cms-content/news', { columns: without })).status).toBe(200);
    const again = await call(a, 'PUT', '/cms-content/news', { columns });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    // No row was written, but every status is gone.
    expect(await countsOn(b)).toEqual({ total: before.total, published: 0, totalAgain: before.total });

    const kept = await countsOn(a);
    expect((await call(b, 'DELETE', '/cms-content/news?force=true')).status).toBe(200);
    const made = await call(b, 'POST', '/cms-content', { title: type.title, slug: 'news', columns });
    expect(made.status).toBe(201);
    expect(kept.total).toBeGreaterThan(0);
    expect(await countsOn(a)).toEqual({ total: 0, published: 0, totalAgain: 0 });
    await create(b, 'Again', 'published');
    expect(await countsOn(a)).toEqual({ total: 1, published: 1, totalAgain: 1 });
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('are kept between writes; a row added behind Quire’s back is counted from its next check after a write', async () => {
    await builtForTests(dbOf(b), 'news');
    // Once a check has found that every row of the table has a search row (the index holds
    // those), the tallies count.
    await create(a, 'Checked', 'draft');
    await vi.waitFor(async () => {
      await create(a, 'Checked again', 'draft');
      expect(await countsOn(b)).toEqual(await truth());
      expect(valueTalliesForTests(dbOf(b), 'news')).toBeGreaterThan(0);
    });
    const tallies = valueTalliesForTests(dbOf(b), 'news');
    const before = await countsOn(b);
    await direct.query(
      `insert into news (id, title, slug, status, created_at, updated_at) values ('behind', 'Behind', 'behind', 'published', '2026-01-01 00:00:00', '2026-01-01 00:00:00')`,
    );
    // The kept counts are given back: no Quire write changed the table's number.
    expect(await countsOn(b)).toEqual(before);
    await create(a, 'Through Quire', 'draft');
    // The row has no search row, so the index (as its searches) does not know it: its tallies
    // count what Quire wrote, until the index is checked again (at most a minute on).
    expect(await countsOn(b)).toEqual({
      total: before.total + 1,
      published: before.published,
      totalAgain: before.total + 1,
    });
    expect(valueTalliesForTests(dbOf(b), 'news')).toBeGreaterThan(tallies);
    // A minute on, the next tally after a write checks again, in the background.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      await create(a, 'A minute on', 'draft');
      await countsOn(b);
    } finally {
      vi.useRealTimers();
    }
    // The check finds a row the index does not hold: SQL counts from the next write on.
    await vi.waitFor(async () => {
      await create(a, 'Through Quire again', 'draft');
      expect(await countsOn(b)).toEqual(await truth());
    });
    expect(await countsOn(b)).toEqual(await truth());
    expect(b.errors).toEqual([]);
  });
});
