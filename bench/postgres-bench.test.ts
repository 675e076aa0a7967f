import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresForTests } from '../server/test-support/postgres.js';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { redact, throwawayDatabase, unreachableReason } from './postgres-bench.mjs';

const postgres = await postgresForTests();

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
});
