import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresForTests } from '../server/test-support/postgres.js';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { redact, settlePostgres, startPostgresFloor, throwawayDatabase, unreachableReason } from './postgres-bench.mjs';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { copyFloor } from './sqlite-bench.mjs';

const postgres = await postgresForTests();
const bench = import.meta.dirname;
const shared = process.env.QUIRE_SHARED_BENCH ?? join(bench, '..', '..', 'shared', 'bench');
const hasShared = existsSync(join(shared, 'limit-server.mjs'));

async function databases(pattern: string): Promise<string[]> {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    const { rows } = await admin.query('select datname from pg_database where datname like $1', [pattern]);
    return rows.map((row) => row.datname);
  } finally {
    await admin.end();
  }
}

describe('PostgreSQL for the benchmark', () => {
  it('says in one line why a server does not answer, without its password', async () => {
    const reason: string = await unreachableReason('postgres://bench:secret@127.0.0.1:1/postgres');
    expect(reason).toMatch(/^postgres:\/\/bench:\*\*\*@127\.0\.0\.1:1\/postgres: \S/);
    expect(reason).not.toContain('secret');
    expect(reason).not.toContain('\n');
    expect(redact('postgres://postgres@127.0.0.1:5432/x')).toBe('postgres://postgres@127.0.0.1:5432/x');
  });

  it.skipIf(!postgres.available)(
    `makes an empty throwaway database and drops it, connections and all${postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : ''}`,
    async () => {
      expect(await unreachableReason(postgres.url)).toBeNull();
      const db = await throwawayDatabase(postgres.url, 'test');
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      client.on('error', () => {}); // the drop ends this connection
      const tables = await client.query("select count(*)::int as n from pg_tables where schemaname = 'public'");
      expect(tables.rows[0].n).toBe(0);
      await db.drop();
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      const left = await admin.query('select 1 from pg_database where datname = $1', [db.name]);
      await admin.end();
      await client.end().catch(() => {});
      expect(left.rowCount).toBe(0);
    },
  );

  it.skipIf(!postgres.available)(
    `vacuums and analyzes a freshly loaded database before measurements${postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : ''}`,
    async () => {
      const db = await throwawayDatabase(postgres.url, 'settle');
      const client = new pg.Client({ connectionString: db.url });
      try {
        await client.connect();
        await client.query('create table loaded as select n from generate_series(1, 1000) as n');
        await settlePostgres(db.url);
        const { rows } = await client.query(
          "select last_vacuum is not null as vacuumed, last_analyze is not null as analyzed from pg_stat_user_tables where relname = 'loaded'",
        );
        expect(rows).toEqual([{ vacuumed: true, analyzed: true }]);
      } finally {
        await client.end().catch(() => {});
        await db.drop();
      }
    },
  );

  it.skipIf(!postgres.available || !hasShared)(
    `runs the PostgreSQL floor on a database of its own, dropped when it stops or by the next run${postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : hasShared ? '' : ' (skipped: no ../shared/bench)'}`,
    async () => {
      copyFloor(shared, bench);
      // A floor database left by a run that was killed: its process (a pid past the kernel's limit) is gone.
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query('drop database if exists quire_bench_floor_test_4194999');
      await admin.query('create database quire_bench_floor_test_4194999');
      await admin.end();
      const floor = await startPostgresFloor({ bench, n: 40, label: 'test', adminUrl: postgres.url });
      const mine = `quire_bench_floor_test_${process.pid}`;
      try {
        expect(await databases('quire\\_bench\\_floor\\_test\\_%')).toEqual([mine]);
        const list = await (await fetch(`${floor.base}/api/cms/news?limit=1`)).json();
        expect(list).toMatchObject({ total: 40, filtered: 40, count: 1 });
      } finally {
        await floor.stop();
      }
      expect(floor.child.exitCode !== null || floor.child.signalCode !== null).toBe(true);
      expect(await databases(mine)).toEqual([]);
    },
    30_000,
  );
});
