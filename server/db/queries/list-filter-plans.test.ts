import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { openDatabase } from '../database.js';
import { ContentRepository } from '../repositories/content-repository.js';
import { createContentTable } from '../repositories/content-schema-repository.js';
import type { StatementRunner } from '../statement-runner.js';
import type { FilterCondition } from './filter-conditions.js';

/**
 * Filters beyond equality keep to the list indexes on SQLite: one of several values and
 * an order comparison search the column's index, and a relation by its target's slug finds the
 * target ids through the target's slug index, then the rows through the relation's index.
 */

const CATEGORIES: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
];
const STORIES: ColumnDescriptor[] = [
  ...CATEGORIES,
  {
    name: 'status',
    label: 'Status',
    type: 'select',
    required: true,
    options: [
      { id: 'draft', text: 'Draft' },
      { id: 'published', text: 'Published' },
    ],
  },
  { name: 'published_at', label: 'Published at', type: 'datetime', required: false },
  { name: 'category', label: 'Category', type: 'relation', required: false, target: 'plan_categories' },
];

let quire: Awaited<ReturnType<typeof openDatabase>>;
beforeAll(async () => {
  quire = await openDatabase(':memory:');
  const db = quire.db as unknown as Kysely<unknown>;
  await createContentTable(db, quire.engine, 'plan_categories', CATEGORIES);
  await createContentTable(db, quire.engine, 'plan_stories', STORIES);
});
afterAll(async () => {
  await quire?.close();
});

/** SQLite's plan of the count the repository runs for one condition. */
async function countPlan(condition: FilterCondition): Promise<string> {
  const statements: [string, readonly unknown[]][] = [];
  const runner: StatementRunner = Object.create(quire.runner);
  runner.all = (text, parameters) => {
    statements.push([text, parameters]);
    return quire.runner.all(text, parameters);
  };
  await new ContentRepository({ db: quire.db, engine: quire.engine, runner: runner }).count('plan_stories', {
    equals: [condition],
  });
  // The count itself (the repository may read the table's schema first).
  const [text, parameters] = statements.filter(([sql]) => /count\(\*\)/i.test(sql)).at(-1) ?? ['', []];
  return (quire.raw.prepare(`explain query plan ${text}`).all(...parameters) as { detail: string }[])
    .map((row) => row.detail)
    .join(' | ');
}

describe('filter plans on SQLite', () => {
  it('one of several values searches the column index', async () => {
    expect(await countPlan({ column: 'status', op: 'in', value: ['draft', 'published'] })).toMatch(
      /^SEARCH plan_stories USING COVERING INDEX \S+ \(status=\?\)/,
    );
  });

  it('an order comparison searches the column index by range', async () => {
    expect(await countPlan({ column: 'published_at', op: 'ge', value: '2026-01-01 00:00:00' })).toMatch(
      /^SEARCH plan_stories USING COVERING INDEX \S+ \(published_at>\?\)/,
    );
  });

  it("a relation by the target's slug goes through both indexes", async () => {
    const plan = await countPlan({
      column: 'category',
      op: 'eq',
      value: 'culture',
      through: { table: 'plan_categories', column: 'slug' },
    });
    expect(plan).toMatch(/^SEARCH plan_stories USING COVERING INDEX \S+ \(category=\?\)/);
    expect(plan).toMatch(/SEARCH plan_categories USING (?:COVERING )?INDEX \S+ \(slug=\?\)/);
    expect(plan).not.toMatch(/SCAN/);
  });
});
