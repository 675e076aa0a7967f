import { CompiledQuery, Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  countSocketWrites,
  postgresForTests,
  sessionsWaitingOnLocks,
  skipNote,
  useTestDatabase,
} from '../../test-support/postgres.js';
import { sendLater } from '../queries/later-statements.js';
import { openPostgresPool, poolConfig } from './postgres-connection.js';
import { QuirePostgresDialect } from './postgres-dialect.js';

/**
 * Statements sent later (later-statements.ts) over a real PostgreSQL: how many times the socket
 * writes, what the server keeps, and which error a broken transaction reports.
 */

const postgres = await postgresForTests();

/** Waits (up to 5 s) until `check` holds. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.skipIf(!postgres.available)(`statements sent later on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let db: Kysely<unknown>;
  /** Times a connection's socket has handed bytes to the kernel (each a round trip's start). */
  let writes: { count: number };

  beforeAll(async () => {
    const pool = openPostgresPool(database().target, { max: 1 });
    writes = countSocketWrites(pool);
    db = new Kysely<unknown>({ dialect: new QuirePostgresDialect({ pool }) });
    await sql`create table notes (id text primary key, body text not null)`.execute(db);
    await sql`create table tallies (name text primary key, n integer not null)`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });
  beforeEach(async () => {
    await sql`truncate notes, tallies`.execute(db);
  });

  const later = (query: { compile(db: Kysely<unknown>): CompiledQuery }) =>
    db.executeQuery(sendLater(query.compile(db)));
  const insertLater = (executor: Kysely<unknown>, id: string) =>
    executor.executeQuery(sendLater(sql`insert into notes (id, body) values (${id}, 'text')`.compile(executor)));
  /**
   * A transaction sending 'a' and a duplicate of the row 'taken' later, then a statement it awaits
   * (`awaitAfter`) or only its COMMIT: the error it ends with.
   */
  const failedLater = async (awaitAfter: boolean) => {
    await sql`insert into notes (id, body) values ('taken', 'text')`.execute(db);
    return db
      .transaction()
      .execute(async (trx) => {
        await insertLater(trx, 'a');
        await insertLater(trx, 'taken');
        if (awaitAfter) await sql`select 1`.execute(trx);
      })
      .catch((caught: unknown) => caught);
  };
  const ids = async () =>
    (await sql<{ id: string }>`select id from notes order by id`.execute(db)).rows.map((row) => row.id);

  it('sends BEGIN and the statements before an awaited one with it: a create is two writes, not eight', async () => {
    writes.count = 0;
    const seen = await db.transaction().execute(async (trx) => {
      await trx.executeQuery(sendLater(sql`select pg_advisory_xact_lock(42)`.compile(trx)));
      const before = await sql<{ n: string }>`select count(*) as n from notes`.execute(trx);
      await insertLater(trx, 'a');
      await trx.executeQuery(
        sendLater(
          sql`insert into tallies (name, n) values ('notes', 1) on conflict (name) do update set n = tallies.n + 1`.compile(
            trx,
          ),
        ),
      );
      await insertLater(trx, 'b');
      return Number(before.rows[0].n);
    });
    // [BEGIN, lock, count] and [insert, tally, insert, COMMIT].
    expect(writes.count).toBe(2);
    expect(seen).toBe(0);
    expect(await ids()).toEqual(['a', 'b']);
  });

  it('runs them in order: a statement awaited after them sees what they wrote', async () => {
    const read = await db.transaction().execute(async (trx) => {
      await insertLater(trx, 'a');
      await insertLater(trx, 'b');
      return (await sql<{ id: string }>`select id from notes order by id`.execute(trx)).rows.map((row) => row.id);
    });
    expect(read).toEqual(['a', 'b']);
  });

  it("fails the awaited statement with a later statement's own error, and the transaction keeps nothing", async () => {
    const error = await failedLater(true);
    // The duplicate key itself, not "current transaction is aborted" (25P02) of the statement after it.
    expect((error as { code?: string }).code).toBe('23505');
    expect(await ids()).toEqual(['taken']);
  });

  it('fails the COMMIT they went with, which the server would otherwise answer with ROLLBACK as if all were well', async () => {
    const error = await failedLater(false);
    expect((error as { code?: string }).code).toBe('23505');
    expect(await ids()).toEqual(['taken']);
  });

  it('rolls back cleanly when the work throws with statements held, and the connection serves the next transaction', async () => {
    const failure = new Error('validation failed');
    await expect(
      db.transaction().execute(async (trx) => {
        await insertLater(trx, 'a');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await ids()).toEqual([]);
    await db.transaction().execute(async (trx) => {
      await insertLater(trx, 'b');
    });
    expect(await ids()).toEqual(['b']);
  });

  it('runs them at once outside a transaction, where nothing would come after to tell a failure', async () => {
    await later(sql`insert into notes (id, body) values ('a', 'text')`);
    expect(await ids()).toEqual(['a']);
    const error = await later(sql`insert into notes (id, body) values ('a', 'text')`).catch(
      (caught: unknown) => caught,
    );
    expect((error as { code?: string }).code).toBe('23505');
  });

  it('takes a lock sent later before the read it went with: that read sees what the holder committed', async () => {
    // Another session holds the lock and writes a row, committing only after Quire's transaction waits.
    const holder = new pg.Client(poolConfig(database().target));
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(7)');
      await holder.query(`insert into notes (id, body) values ('first', 'text')`);
      const seen = db.transaction().execute(async (trx) => {
        await trx.executeQuery(sendLater(CompiledQuery.raw('select pg_advisory_xact_lock(7)')));
        return (await sql<{ id: string }>`select id from notes`.execute(trx)).rows.map((row) => row.id);
      });
      await until(async () => (await sessionsWaitingOnLocks(holder)) === 1);
      await holder.query('commit');
      // The read's snapshot was taken once the lock was granted, after the holder's commit.
      expect(await seen).toEqual(['first']);
    } finally {
      await holder.end();
    }
  });
});
