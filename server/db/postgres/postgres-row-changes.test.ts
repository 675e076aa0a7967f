import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { postgresForTests, skipNote, useOpenedTestDatabase } from '../../test-support/postgres.js';
import { changeNumber, changeNumberCovers, gapToken, rowsChanged } from './postgres-row-changes.js';

/** A table's change number read beside many rows (postgres-row-changes.ts), on a real PostgreSQL. */

const postgres = await postgresForTests();

interface PlanNode {
  'Parent Relationship'?: string;
  Output?: string[];
  Plans?: PlanNode[];
}

/** Every node of a plan with whether it sits under an InitPlan. */
function nodes(plan: PlanNode, underInit = false): { node: PlanNode; underInit: boolean }[] {
  const here = underInit || plan['Parent Relationship'] === 'InitPlan';
  return [{ node: plan, underInit: here }, ...(plan.Plans ?? []).flatMap((child) => nodes(child, here))];
}

describe.skipIf(!postgres.available)(`change numbers read beside rows on PostgreSQL${skipNote(postgres)}`, () => {
  const opened = useOpenedTestDatabase(postgres.url);
  let db: Kysely<unknown>;
  beforeAll(async () => {
    db = opened().db as unknown as Kysely<unknown>;
    await sql`insert into categories (id, title, slug, created_at, updated_at)
      select 'c' || n, 'Title ' || n, 'title-' || n, '2026-01-01 00:00:00', '2026-01-01 00:00:00'
      from generate_series(1, 40) n`.execute(db);
  });

  const pageWithNumber = () =>
    db
      .selectFrom('categories' as never)
      .select(['id' as never, changeNumber('categories').as('number')])
      .orderBy('id' as never)
      .limit(20);

  it('is computed once per statement, not once per row', async () => {
    const compiled = pageWithNumber().compile();
    const explained = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
      ...compiled,
      sql: `explain (verbose, format json) ${compiled.sql}`,
    });
    const all = nodes(explained.rows[0]['QUERY PLAN'][0].Plan);
    const calling = all.filter(({ node }) => (node.Output ?? []).some((out) => out.includes('quire_change_number')));
    // Per row, the function would be in the output of the scan (and of every node above it).
    expect(calling.length).toBeGreaterThan(0);
    expect(calling.every(({ underInit }) => underInit)).toBe(true);
  });

  it('gives every row of a page the number read alone, and moves with a row write', async () => {
    const alone = async () =>
      (await db.selectNoFrom(changeNumber('categories').as('number')).executeTakeFirstOrThrow()).number;
    const before = await alone();
    const rows = await pageWithNumber().execute();
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((row) => row.number))).toEqual(new Set([before]));
    await db.transaction().execute((trx) => rowsChanged(trx, 'categories', true));
    const after = await alone();
    expect(after).not.toBe(before);
    expect(changeNumberCovers(after, before)).toBe(true);
    expect(changeNumberCovers(before, after)).toBe(false);
  });

  it("raises the gap token with an update or a delete's write, not with a create's", async () => {
    const token = async () =>
      (await db.selectNoFrom(gapToken('categories').as('token')).executeTakeFirstOrThrow()).token;
    const numbers = async () =>
      (await db.selectNoFrom(changeNumber('categories').as('number')).executeTakeFirstOrThrow()).number;
    const first = await token();
    const number = await numbers();
    await db.transaction().execute((trx) => rowsChanged(trx, 'categories', true));
    expect(await token()).toBe(first);
    expect(await numbers()).not.toBe(number);
    await db.transaction().execute((trx) => rowsChanged(trx, 'categories', false));
    const second = await token();
    expect(second).not.toBe(first);
    // Rolled back, the raise is not seen.
    await db
      .transaction()
      .execute(async (trx) => {
        await rowsChanged(trx, 'categories', false);
        throw new Error('undone');
      })
      .catch(() => {});
    expect(await token()).toBe(second);
    // Another table's writes leave it.
    await db.transaction().execute((trx) => rowsChanged(trx, 'pages', false));
    expect(await token()).toBe(second);
  });
});
