import { CompiledQuery, Kysely, sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countSocketWrites, postgresForTests, skipNote, useTestDatabase } from '../../test-support/postgres.js';
import { readAnywhere } from '../queries/shared-reads.js';
import { openPostgresPool } from './postgres-connection.js';
import { QuirePostgresDialect } from './postgres-dialect.js';
import { isDatabaseUnavailable } from './postgres-errors.js';
import { SharedReads } from './postgres-shared-reads.js';

/**
 * Reads sharing connections (postgres-shared-reads.ts) over a real PostgreSQL: which backend runs
 * each read, how many times the sockets write, what a transaction's reads see, and what one failing
 * or slow read does to the others.
 */

const postgres = await postgresForTests();

describe.skipIf(!postgres.available)(`reads sharing connections on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let pool: pg.Pool;
  let db: Kysely<unknown>;
  /** Times the pool's sockets have handed bytes to the kernel since the test began. */
  let writes: { count: number };

  beforeAll(async () => {
    pool = openPostgresPool(database().target, { max: 4 });
    writes = countSocketWrites(pool);
    db = new Kysely<unknown>({ dialect: new QuirePostgresDialect({ pool }) });
    await sql`create table notes (id text primary key, body text not null)`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });
  beforeEach(async () => {
    await sql`truncate notes`.execute(db);
    // Every connection the pool will lend is open, so a read's writes are its own, not a login's.
    await Promise.all(Array.from({ length: 4 }, () => pool.connect())).then((clients) => {
      for (const client of clients) client.release();
    });
    writes.count = 0;
  });

  /** A marked read through Kysely: the backend that ran it, and `n` back. */
  const backendOf = async (executor: Kysely<unknown>, n: number) => {
    const query = sql<{ pid: number; n: number }>`select pg_backend_pid() as pid, ${n}::int as n`.compile(executor);
    const { rows } = await executor.executeQuery(readAnywhere(query));
    return rows[0];
  };
  const pidOf = async (executor: Kysely<unknown>) =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(executor)).rows[0].pid;

  it('sends the reads arriving together down one connection in one write, each getting its own answer', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => backendOf(db, n)));
    expect(answers.map((answer) => answer.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(answers.map((answer) => answer.pid)).size).toBe(1);
    expect(writes.count).toBe(1);
    // The connection went back to the pool with no read in flight.
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it('runs unmarked statements on connections of their own, one write each', async () => {
    const pids = await Promise.all(Array.from({ length: 3 }, () => pidOf(db)));
    expect(new Set(pids).size).toBe(3);
    expect(writes.count).toBe(3);
  });

  it("runs a transaction's marked reads in the transaction: they see its rows, other reads do not", async () => {
    const seen = await db.transaction().execute(async (trx) => {
      await sql`insert into notes (id, body) values ('a', 'uncommitted')`.execute(trx);
      const inside = readAnywhere(sql`select id from notes`.compile(trx));
      const outside = readAnywhere(sql`select id from notes`.compile(db));
      const [mine, others] = await Promise.all([trx.executeQuery(inside), db.executeQuery(outside)]);
      return { mine: mine.rows, others: others.rows, pid: await pidOf(trx), marked: (await backendOf(trx, 1)).pid };
    });
    expect(seen.mine).toEqual([{ id: 'a' }]);
    expect(seen.others).toEqual([]);
    expect(seen.marked).toBe(seen.pid);
  });

  it('sees what was committed before it was sent', async () => {
    await sql`insert into notes (id, body) values ('b', 'committed')`.execute(db);
    const { rows } = await db.executeQuery(readAnywhere(CompiledQuery.raw('select id from notes')));
    expect(rows).toEqual([{ id: 'b' }]);
  });

  it('fails a failing read alone: the reads sent with it get their answers', async () => {
    const failing = db.executeQuery(readAnywhere(CompiledQuery.raw('select 1 / 0 as n')));
    const results = await Promise.allSettled([backendOf(db, 1), failing, backendOf(db, 3)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(((results[1] as PromiseRejectedResult).reason as { code?: string }).code).toBe('22012');
    expect(writes.count).toBe(1);
    expect((await backendOf(db, 4)).n).toBe(4);
  });

  it('borrows another connection when a read has waited too long, so a slow read does not hold up the next', async () => {
    const reads = new SharedReads(pool, { readers: 2, depth: 8, slowMs: 20 });
    const slow = reads.execute<{ pid: number }>(CompiledQuery.raw('select pg_backend_pid() as pid, pg_sleep(0.5)'));
    let slowDone = false;
    void slow.then(() => {
      slowDone = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const fast = await reads.execute<{ pid: number }>(CompiledQuery.raw('select pg_backend_pid() as pid'));
    // Answered while the slow read still runs, by another backend.
    expect(slowDone).toBe(false);
    expect(reads.readers).toBe(1);
    const slowPid = (await slow).rows[0].pid;
    expect(fast.rows[0].pid).not.toBe(slowPid);
    expect(reads.readers).toBe(0);
  });

  it('joins the least busy of its readers, borrowing up to its limit when each has `depth` reads in flight', async () => {
    const reads = new SharedReads(pool, { readers: 2, depth: 2, slowMs: 10_000 });
    const read = () =>
      reads.execute<{ pid: number }>(CompiledQuery.raw('select pg_backend_pid() as pid, pg_sleep(0.05)'));
    const first = [read(), read()];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = [read(), read()];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const third = [read(), read()];
    expect(reads.readers).toBe(2);
    const pids = async (answers: Promise<{ rows: { pid: number }[] }>[]) =>
      (await Promise.all(answers)).map((answer) => answer.rows[0].pid);
    const [a, b, c] = [await pids(first), await pids(second), await pids(third)];
    expect(new Set(a).size).toBe(1);
    expect(new Set(b).size).toBe(1);
    expect(b[0]).not.toBe(a[0]);
    expect(new Set([...a, ...b, ...c]).size).toBe(2);
    expect(reads.readers).toBe(0);
  });

  it('fails the reads of a connection that ends as the database being unavailable; the next read has a new one', async () => {
    const stuck = db
      .executeQuery(readAnywhere(CompiledQuery.raw('select pg_sleep(5) as quire_stuck_read')))
      .catch((caught: unknown) => caught);
    let victim: number | undefined;
    for (let i = 0; i < 250 && victim === undefined; i++) {
      const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity
        where query like '%quire_stuck_read%' and pid <> pg_backend_pid()`.execute(db);
      victim = rows[0]?.pid;
      if (victim === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(victim).toBeDefined();
    await sql`select pg_terminate_backend(${victim})`.execute(db);
    const error = await stuck;
    expect(isDatabaseUnavailable(error)).toBe(true);
    const after = await backendOf(db, 1);
    expect(after.pid).not.toBe(victim);
  });
});
