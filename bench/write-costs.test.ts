import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuireDb } from '../server/db/database.js';
import { type OpenTestDatabase, openTestDatabase } from '../server/test-support/test-database.js';
import { measureWriteCosts } from './write-costs.js';

/** bench/write-costs.ts drives the real row service: its writes are made, and its figures are measured. */
let opened: OpenTestDatabase;

beforeAll(async () => {
  opened = await openTestDatabase();
});

afterAll(async () => {
  await opened?.dispose();
});

async function newsRows(database: QuireDb): Promise<number> {
  const { table_name: table } = await database.db
    .selectFrom('quire_content_types')
    .select('table_name')
    .where('slug', '=', 'news')
    .executeTakeFirstOrThrow();
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(database.db);
  return Number(rows[0].n);
}

describe('write-costs', () => {
  it('creates and updates rows through the row service and reports their rate and CPU', async () => {
    const { database } = opened;
    const before = await newsRows(database);
    const costs = await measureWriteCosts(database, { type: 'news', seconds: 0.3, inFlight: 4 });
    for (const cost of [costs.create, costs.update]) {
      expect(cost.done).toBeGreaterThan(0);
      expect(cost.perSecond).toBeGreaterThan(0);
      expect(cost.processUs).toBeGreaterThan(0);
      // The backends' CPU is read from /proc for a PostgreSQL on this machine (the tests' own).
      if (database.engine.kind === 'postgres') expect(cost.backendsUs).toEqual(expect.any(Number));
      else expect(cost.backendsUs).toBeNull();
    }
    expect(await newsRows(database)).toBe(before + costs.create.done);
  });
});
