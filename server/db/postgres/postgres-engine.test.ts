import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { postgresForTests, skipNote, useOpenedTestDatabase } from '../../test-support/postgres.js';
import type { PostgresQuireDb } from '../database.js';
import type { SqlSearchIndex } from '../engine.js';
import { searchTextName } from '../queries/internal-names.js';
import { escapeLike } from './postgres-search-index.js';

/** The PostgreSQL engine's search table, below the API. */

const postgres = await postgresForTests();

describe('escapeLike', () => {
  it('makes LIKE wildcards and its escape literal, and leaves the rest', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
    expect(escapeLike('über straße')).toBe('über straße');
  });
});

describe.skipIf(!postgres.available)(`the PostgreSQL search table${skipNote(postgres)}`, () => {
  const opened = useOpenedTestDatabase(postgres.url);
  let quire: PostgresQuireDb;
  beforeAll(() => {
    quire = opened();
  });

  it('is rebuilt from the table in batches, folded in JavaScript, when its columns change', async () => {
    const { engine } = quire;
    const db = quire.db as unknown as Kysely<unknown>;
    // Rows written behind Quire's back (as a copy or restore would), more than one batch of them.
    await sql`insert into categories (id, title, slug, created_at, updated_at)
      select 'c' || lpad(g::text, 5, '0'), 'GROẞE İdee ' || g, 'slug-' || g, '2026-01-01 00:00:00', '2026-01-01 00:00:00'
      from generate_series(1, 1234) g`.execute(db);
    await engine.searchIndex.ensure(db, 'categories', ['title']);
    expect(await engine.searchIndex.indexedColumns(db, 'categories')).toEqual(['title']);
    await engine.searchIndex.ensure(db, 'categories', ['title', 'slug']);
    expect(await engine.searchIndex.indexedColumns(db, 'categories')).toEqual(['title', 'slug']);
    const side = sql.id(searchTextName('categories'));
    const rows = await sql<{
      n: string;
      folded: string;
    }>`select count(*) as n, min(title) as folded from ${side}`.execute(db);
    expect(Number(rows.rows[0].n)).toBe(1234);
    expect(rows.rows[0].folded.startsWith('große i̇dee ')).toBe(true);
    const found = await db
      .selectFrom('categories' as never)
      .select(sql<string>`id`.as('id'))
      .where((engine.searchIndex.sql as SqlSearchIndex).matches('categories', ['title', 'slug'], ['ẞe İdee 1233']))
      .execute();
    expect(found).toEqual([{ id: 'c01233' }]);
    // Same columns in another order: kept as it is.
    await engine.searchIndex.ensure(db, 'categories', ['slug', 'title']);
    expect(await engine.searchIndex.indexedColumns(db, 'categories')).toEqual(['title', 'slug']);
  });

  it('matches tags only as whole elements of the JSON array', async () => {
    const { engine } = quire;
    const db = quire.db as unknown as Kysely<unknown>;
    const has = async (stored: string | null, value: string) => {
      const result = await sql<{ yes: boolean | null }>`select ${engine.jsonArrayContains('t', value)} as yes
        from (select ${stored}::text as t) s`.execute(db);
      return result.rows[0].yes === true;
    };
    expect(await has('["red","blue"]', 'red')).toBe(true);
    expect(await has('["red","blue"]', 're')).toBe(false);
    expect(await has('[]', 'red')).toBe(false);
    expect(await has(null, 'red')).toBe(false);
  });
});
