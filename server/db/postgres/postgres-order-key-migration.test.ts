import { Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { postgresForTests, skipNote, useTestDatabase } from '../../test-support/postgres.js';
import { openPostgresDatabase } from '../database.js';
import { migrationProvider } from '../migrations/index.js';
import { connectPostgres } from './postgres-connection.js';
import { QuirePostgresDialect } from './postgres-dialect.js';
import { postgresEngine } from './postgres-engine.js';

/**
 * Upgrading a PostgreSQL database to the order key columns (migration 021) writes every content
 * table again, which empties its visibility map: until a VACUUM every list's index walk would read
 * the table for each row it passes. The server that runs the migration VACUUMs the tables after it.
 */

const postgres = await postgresForTests();

describe.skipIf(!postgres.available)(`migration 021 on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);

  it('leaves the tables it wrote again walkable by their indexes alone', async () => {
    // The database as a version before 021 left it: migrated up to 020 and no further.
    const { pool } = await connectPostgres(database().target);
    const db = new Kysely<unknown>({ dialect: new QuirePostgresDialect({ pool }) });
    try {
      const { error } = await new Migrator({ db, provider: migrationProvider(postgresEngine) }).migrateTo(
        '020-search-row-numbers',
      );
      if (error) throw error;
      // The starter type `news`, with rows in an order their titles do not follow.
      await sql`insert into news (id, title, slug, status, created_at, updated_at)
        select lpad(n::text, 8, '0'), 'Post ' || (n * 7919 % 5000), 'post-' || n,
          case when n % 3 = 0 then 'draft' else 'published' end, '2026-01-01 00:00:00', '2026-01-01 00:00:00'
        from generate_series(1, 5000) as n`.execute(db);
    } finally {
      await db.destroy();
    }

    const after = await openPostgresDatabase(database().target);
    try {
      const plan = await after.db.connection().execute(async (connection) => {
        await sql`set enable_seqscan = off`.execute(connection);
        await sql`set enable_bitmapscan = off`.execute(connection);
        const { rows } = await sql<{ 'QUERY PLAN': { Plan: { 'Node Type': string; 'Heap Fetches'?: number } }[] }>`
          explain (analyze, format json) select id from news where status = 'published'
          order by "quire_key:title" nulls first, id offset 1000 limit 20`.execute(connection);
        return rows[0]['QUERY PLAN'][0].Plan;
      });
      const walk = JSON.stringify(plan);
      expect(walk).toContain('"Node Type":"Index Only Scan"');
      expect(walk).toContain('"Heap Fetches":0');
    } finally {
      await after.close();
    }
  });
});
