import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { describeOnBothEngines, type EngineSuiteDatabase } from '../../test-support/engine-suites.js';
import { postgresForTests, skipNote, useTestDatabase } from '../../test-support/postgres.js';
import { openDatabase, openPostgresDatabase, type QuireDb } from '../database.js';
import { up as migrate011 } from '../migrations/011-list-indexes.js';
import { up as migrate017 } from '../migrations/017-list-index-null-order.js';
import { up as migrate021 } from '../migrations/021-order-key-columns.js';
import { ContentRepository } from '../repositories/content-repository.js';
import { alterContentTable, createContentTable } from '../repositories/content-schema-repository.js';
import type { StatementRunner } from '../statement-runner.js';
import { MAX_INTERNAL_NAME_BYTES } from './internal-names.js';

/**
 * The indexes lists need: one per orderable column, one per select or relation filter and
 * order, a narrow one per filter for counts; made with the table, following its columns through
 * renames, drops and adds, and given to existing tables by migration 011. On both engines.
 */

const postgres = await postgresForTests();

const COLUMNS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
  { name: 'body', label: 'Body', type: 'markdown', required: false },
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
  { name: 'tags', label: 'Tags', type: 'tags', required: false },
  { name: 'category', label: 'Category', type: 'relation', required: false, target: 'categories' },
];

/** `name: columns` of every index of `table` made by a statement, sorted. */
async function indexesOf(quire: QuireDb, table: string): Promise<string[]> {
  const found = await quire.engine.schema.indexes(quire.db as unknown as Kysely<unknown>, table);
  return found
    .map((index) => {
      const columns = /\((.*)\)\s*$/.exec(index.sql)?.[1].replaceAll('"', '') ?? index.sql;
      return `${/create unique index/i.test(index.sql) ? 'unique ' : ''}${index.name}: ${columns}`;
    })
    .sort();
}

/** `name: expression` of the generated columns of `table` (PostgreSQL's order key columns). */
async function keyColumnsOf(quire: QuireDb, table: string): Promise<string[]> {
  if (quire.engine.kind === 'sqlite') return [];
  const rows = await sql<{ name: string; expression: string }>`select a.attname as name,
      pg_get_expr(d.adbin, d.adrelid) as expression
    from pg_attribute a join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = ${table}::regclass and a.attgenerated = 's' and not a.attisdropped`.execute(
    quire.db as unknown as Kysely<unknown>,
  );
  return rows.rows.map((row) => `${row.name}: ${row.expression.replaceAll('"', '')}`);
}

/** What identifies each index's storage (SQLite's root page, PostgreSQL's relfilenode): kept or rebuilt. */
async function storageOf(quire: QuireDb, table: string): Promise<Map<string, string>> {
  const db = quire.db as unknown as Kysely<unknown>;
  const rows =
    quire.engine.kind === 'sqlite'
      ? await sql<{ name: string; storage: number }>`select name, rootpage as storage from sqlite_master
          where type = 'index' and tbl_name = ${table}`.execute(db)
      : await sql<{ name: string; storage: number }>`select i.relname as name, i.relfilenode as storage
          from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
          where t.relname = ${table}`.execute(db);
  return new Map(rows.rows.map((row) => [row.name, String(row.storage)]));
}

/**
 * The index list the plan gives a table with these order and filter columns on an engine: on
 * PostgreSQL it says `nulls first` on the columns of list orders (not on `id`, never null) and
 * holds the first 200 characters of `title`, the text column, through its order key column.
 */
function plannedIndexes(table: string, kind: QuireDb['engine']['kind'], orders: string[], filters: string[]): string[] {
  const key = (column: string) => (kind === 'postgres' && texts.has(column) ? `quire_key:${column}` : column);
  const ordered = (column: string) => (kind === 'postgres' ? `${key(column)} nulls first` : column);
  const names = [`unique quire_unique:${table}:slug: slug`];
  for (const order of orders) names.push(`quire_idx:${table}:${order}: ${ordered(order)}, id`);
  for (const filter of filters) {
    names.push(`quire_count:${table}:${filter}: ${filter}`);
    for (const order of orders) {
      if (order !== filter)
        names.push(`quire_idx:${table}:${filter}:${order}: ${ordered(filter)}, ${ordered(order)}, id`);
    }
  }
  return names.sort();
}

/** The text columns of the tables here (renamed or added by the tests too). */
const texts = new Set(['title', 'headline', 'subtitle']);

/** The index list of COLUMNS' table. */
function expectedIndexes(table: string, kind: QuireDb['engine']['kind']): string[] {
  const orders = ['title', 'slug', 'status', 'published_at', 'category', 'created_at', 'updated_at'];
  return plannedIndexes(table, kind, orders, ['status', 'category']);
}

await describeOnBothEngines('list indexes', listIndexSuite);

/** The tests of both engines, over the database each engine's suite opens. */
function listIndexSuite(db: EngineSuiteDatabase): void {
  /** Creates COLUMNS' table `table` with its content type's registry row, as migrations read it. */
  async function createRegistered(table: string, title: string, position: number): Promise<void> {
    await createContentTable(db.schema, db.quire.engine, table, COLUMNS);
    await sql`insert into quire_content_types (id, slug, table_name, title, status, type, custom, columns,
        preview_path, position, created_at, updated_at)
      values (${table}, ${table}, ${table}, ${title}, 'published', 'collection', 1, ${JSON.stringify(COLUMNS)},
        null, ${position}, '2026-01-01 00:00:00', '2026-01-01 00:00:00')`.execute(db.schema);
  }

  it('a new table gets an index per order, per filter and order, and a count index per filter', async () => {
    await createContentTable(db.schema, db.quire.engine, 'list_new', COLUMNS);
    // Text is indexed whole where any text fits an index, by its first characters on PostgreSQL;
    // bodies and tags never.
    expect(await indexesOf(db.quire, 'list_new')).toEqual(expectedIndexes('list_new', db.quire.engine.kind));
  });

  it('follows renamed, dropped and added columns, keeping the indexes they leave alone', async () => {
    await createContentTable(db.schema, db.quire.engine, 'list_alter', COLUMNS);
    const before = await storageOf(db.quire, 'list_alter');
    const renamed = COLUMNS.map((column) => (column.name === 'category' ? { ...column, name: 'section' } : column));
    const columns = [
      ...renamed.filter((column) => column.name !== 'published_at'),
      { name: 'rank', label: 'Rank', type: 'number', required: false } as ColumnDescriptor,
    ];
    await db.schema.transaction().execute((trx) =>
      alterContentTable(trx, db.quire.engine, 'list_alter', {
        renames: [{ from: 'category', to: 'section' }],
        drops: ['published_at'],
        adds: [{ name: 'rank', label: 'Rank', type: 'number', required: false }],
        columns,
      }),
    );
    const orders = ['title', 'slug', 'status', 'section', 'rank', 'created_at', 'updated_at'];
    expect(await indexesOf(db.quire, 'list_alter')).toEqual(
      plannedIndexes('list_alter', db.quire.engine.kind, orders, ['status', 'section']),
    );
    const after = await storageOf(db.quire, 'list_alter');
    // Untouched columns' indexes are the same objects; the renamed column's are new ones.
    expect(after.get('quire_idx:list_alter:status:slug')).toBe(before.get('quire_idx:list_alter:status:slug'));
    expect(after.get('quire_unique:list_alter:slug')).toBe(before.get('quire_unique:list_alter:slug'));
    expect(after.has('quire_idx:list_alter:category')).toBe(false);
    expect(after.has('quire_idx:list_alter:section:slug')).toBe(true);
  });

  it('keeps an order key column beside each text column on PostgreSQL, through renames, drops and adds', async () => {
    await createContentTable(db.schema, db.quire.engine, 'list_keys', COLUMNS);
    const keysOf = async () => (await keyColumnsOf(db.quire, 'list_keys')).sort();
    const expected = (names: string[]) => (db.quire.engine.kind === 'postgres' ? names : []);
    expect(await keysOf()).toEqual(expected(['quire_key:title: left(title, 200)']));
    const text = (name: string): ColumnDescriptor => ({ name, label: name, type: 'text', required: false });
    const renamed = COLUMNS.map((column) => (column.name === 'title' ? { ...column, name: 'headline' } : column));
    await db.schema.transaction().execute((trx) =>
      alterContentTable(trx, db.quire.engine, 'list_keys', {
        renames: [{ from: 'title', to: 'headline' }],
        drops: [],
        adds: [text('subtitle')],
        columns: [...renamed, text('subtitle')],
      }),
    );
    expect(await keysOf()).toEqual(
      expected(['quire_key:headline: left(headline, 200)', 'quire_key:subtitle: left(subtitle, 200)']),
    );
    await db.schema.transaction().execute((trx) =>
      alterContentTable(trx, db.quire.engine, 'list_keys', {
        renames: [],
        drops: ['headline'],
        adds: [],
        columns: [...renamed.filter((column) => column.name !== 'headline'), text('subtitle')],
      }),
    );
    expect(await keysOf()).toEqual(expected(['quire_key:subtitle: left(subtitle, 200)']));
    const orders = ['slug', 'status', 'published_at', 'category', 'subtitle', 'created_at', 'updated_at'];
    expect(await indexesOf(db.quire, 'list_keys')).toEqual(
      plannedIndexes('list_keys', db.quire.engine.kind, orders, ['status', 'category']),
    );
  });

  it('migration 021 gives text columns their order key columns and moves their indexes onto them', async () => {
    await createRegistered('list_expr', 'Expr', 97);
    if (db.quire.engine.kind === 'postgres') {
      // The table as migration 017 left it: indexes over the expression, no key column.
      await sql`alter table list_expr drop column "quire_key:title"`.execute(db.schema);
      await sql`create index "quire_idx:list_expr:title" on list_expr (left(title, 200) nulls first, id)`.execute(
        db.schema,
      );
      await sql`create index "quire_idx:list_expr:status:title" on list_expr
        (status nulls first, left(title, 200) nulls first, id)`.execute(db.schema);
    }
    const before = await storageOf(db.quire, 'list_expr');
    await migrate021(db.schema, db.quire.engine);
    expect(await indexesOf(db.quire, 'list_expr')).toEqual(expectedIndexes('list_expr', db.quire.engine.kind));
    expect(await keyColumnsOf(db.quire, 'list_expr')).toEqual(
      db.quire.engine.kind === 'postgres' ? ['quire_key:title: left(title, 200)'] : [],
    );
    if (db.quire.engine.kind === 'sqlite') expect(await storageOf(db.quire, 'list_expr')).toEqual(before);
  });

  it('migration 011 gives a table with the indexes of before it the missing ones', async () => {
    await createRegistered('list_old', 'Old', 99);
    // The indexes 010 left: slug unique, (column, id) per select/datetime/relation, (select, datetime, id).
    const old = new Set([
      'quire_unique:list_old:slug',
      'quire_idx:list_old:status',
      'quire_idx:list_old:published_at',
      'quire_idx:list_old:category',
      'quire_idx:list_old:status:published_at',
      'quire_idx:list_old:created_at',
      'quire_idx:list_old:updated_at',
    ]);
    for (const name of (await storageOf(db.quire, 'list_old')).keys()) {
      if (!old.has(name) && name.startsWith('quire_')) await db.schema.schema.dropIndex(name).execute();
    }
    const before = await storageOf(db.quire, 'list_old');
    await migrate011(db.schema, db.quire.engine);
    expect(await indexesOf(db.quire, 'list_old')).toEqual(expectedIndexes('list_old', db.quire.engine.kind));
    const after = await storageOf(db.quire, 'list_old');
    for (const name of old) expect(after.get(name), name).toBe(before.get(name));
  });

  it('migration 017 rebuilds list indexes whose nulls are not first on PostgreSQL, keeping the others', async () => {
    await createRegistered('list_nulls', 'Nulls', 98);
    // The form 011 gave this index before nulls came first.
    const name = 'quire_idx:list_nulls:status:published_at';
    await db.schema.schema.dropIndex(name).execute();
    await db.schema.schema.createIndex(name).on('list_nulls').columns(['status', 'published_at', 'id']).execute();
    const before = await storageOf(db.quire, 'list_nulls');
    await migrate017(db.schema, db.quire.engine);
    expect(await indexesOf(db.quire, 'list_nulls')).toEqual(expectedIndexes('list_nulls', db.quire.engine.kind));
    const after = await storageOf(db.quire, 'list_nulls');
    for (const [index, storage] of before) {
      const rebuilt = db.quire.engine.kind === 'postgres' && index === name;
      if (rebuilt) expect(after.get(index), index).not.toBe(storage);
      else expect(after.get(index), index).toBe(storage);
    }
  });

  it('names stay within 63 bytes and distinct for long table and column names', async () => {
    const long = 'a'.repeat(60);
    const columns: ColumnDescriptor[] = [
      { ...COLUMNS[3], name: `${long}_s1` },
      { ...COLUMNS[3], name: `${long}_s2` },
      { name: `${long}_n`, label: 'N', type: 'number', required: false },
    ];
    await createContentTable(db.schema, db.quire.engine, `t_${long}`, columns);
    const names = [...(await storageOf(db.quire, `t_${long}`)).keys()].filter((name) => name.startsWith('quire_'));
    // (column, id) for 3 columns and 2 timestamps, a count index and 4 composites per select.
    expect(names).toHaveLength(5 + 2 * 5);
    for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_INTERNAL_NAME_BYTES);
  });
}

describe('list queries on SQLite walk an index', () => {
  let quire: Awaited<ReturnType<typeof openDatabase>>;
  beforeAll(async () => {
    quire = await openDatabase(':memory:');
    await createContentTable(quire.db as unknown as Kysely<unknown>, quire.engine, 'list_plan', COLUMNS);
  });
  afterAll(async () => {
    await quire?.close();
  });

  /** SQLite's plan of every statement the repository runs for `work`. */
  async function plansOf(work: (repository: ContentRepository) => Promise<unknown>): Promise<string[]> {
    const statements: [string, readonly unknown[]][] = [];
    // The database's own runner, noting every read it runs.
    const runner: StatementRunner = Object.create(quire.runner);
    runner.all = (text, parameters) => {
      statements.push([text, parameters]);
      return quire.runner.all(text, parameters);
    };
    await work(new ContentRepository({ db: quire.db, engine: quire.engine, runner: runner }));
    return statements.map(([text, parameters]) =>
      (quire.raw.prepare(`explain query plan ${text}`).all(...parameters) as { detail: string }[])
        .map((row) => row.detail)
        .join(' | '),
    );
  }

  const orders = ['id', 'title', 'slug', 'status', 'published_at', 'category', 'created_at', 'updated_at'];
  it.each(
    ['status', 'category', null].flatMap((filter) =>
      orders.flatMap((order) => [false, true].map((desc) => ({ filter, order, desc }))),
    ),
  )('filter $filter, order $order, desc $desc: an index walk, no sort', async ({ filter, order, desc }) => {
    const selection = { equals: filter ? [{ column: filter, value: 'x' }] : [] };
    const [first, deep] = await plansOf(async (repository) => {
      await repository.list('list_plan', selection, { order, desc, limit: 20, offset: 0 });
      await repository.list('list_plan', selection, { order, desc, limit: 20, offset: 10_000 });
    });
    const range = filter ? `SEARCH list_plan USING INDEX \\S+ \\(${filter}=\\?\\)` : 'SCAN list_plan USING INDEX \\S+';
    expect(first).toMatch(new RegExp(`^${range}$`));
    // Past an offset, the ids come from the index alone; only the page's 20 rows are sorted.
    expect(deep).toMatch(
      new RegExp(
        `^SEARCH list_plan USING INDEX \\S+ \\(id=\\?\\) \\| LIST SUBQUERY 1 \\| ${range.replace('USING INDEX', 'USING COVERING INDEX')}(?: \\| USE TEMP B-TREE FOR ORDER BY)?$`,
      ),
    );
  });

  it('counts a filter value, and all rows, in the narrow index of a filter', async () => {
    const plans = await plansOf(async (repository) => {
      await repository.count('list_plan', { equals: [{ column: 'status', value: 'draft' }] });
      await repository.count('list_plan', { equals: [] });
    });
    expect(plans[0]).toBe('SEARCH list_plan USING COVERING INDEX quire_count:list_plan:status (status=?)');
    expect(plans[1]).toMatch(/^SCAN list_plan USING COVERING INDEX quire_count:list_plan:/);
  });
});

describe.skipIf(!postgres.available)(`list queries on PostgreSQL past an offset${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let quire: QuireDb;
  beforeAll(async () => {
    quire = await openPostgresDatabase(database().target);
    await createContentTable(quire.db as unknown as Kysely<unknown>, quire.engine, 'list_plan', COLUMNS);
  });
  afterAll(async () => {
    await quire?.close();
  });

  interface PlanNode {
    'Node Type': string;
    'Join Type'?: string;
    'Parent Relationship'?: string;
    Plans?: PlanNode[];
  }
  const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

  /** Every read the repository sends for `work`: its text and parameters. */
  async function statementsOf(work: (repository: ContentRepository) => Promise<unknown>) {
    const spy = vi.spyOn(quire.db, 'executeQuery');
    try {
      await work(new ContentRepository({ db: quire.db, engine: quire.engine }));
      return spy.mock.calls.map(([query]) => query as CompiledQuery);
    } finally {
      spy.mockRestore();
    }
  }

  /** PostgreSQL's plan of `statement` prepared, as a server's connection keeps it: generic or custom. */
  async function planOf(statement: { sql: string; parameters: readonly unknown[] }, mode: string): Promise<PlanNode[]> {
    return quire.db.connection().execute(async (db) => {
      const untyped = db as unknown as Kysely<unknown>;
      await sql`set plan_cache_mode = ${sql.lit(mode)}`.execute(untyped);
      await sql.raw(`prepare quire_plan_test as ${statement.sql}`).execute(untyped);
      try {
        const values = statement.parameters.map((value) => sql.lit(value as string | number));
        const { rows } = await sql<{
          'QUERY PLAN': [{ Plan: PlanNode }];
        }>`explain (format json) execute quire_plan_test(${sql.join(values)})`.execute(untyped);
        return nodesOf(rows[0]['QUERY PLAN'][0].Plan);
      } finally {
        await sql`deallocate quire_plan_test`.execute(untyped);
        await sql`reset plan_cache_mode`.execute(untyped);
      }
    });
  }

  it.each(
    ['status', null].flatMap((filter) =>
      ['id', 'title', 'published_at'].flatMap((order) => [false, true].map((desc) => ({ filter, order, desc }))),
    ),
  )(
    'filter $filter, order $order, desc $desc: the page ids first, then their rows',
    async ({ filter, order, desc }) => {
      const selection = { equals: filter ? [{ column: filter, value: 'draft' }] : [] };
      const page = { order, desc, limit: 20, offset: 4000, orderByText: order === 'title' };
      const [statement] = await statementsOf((repository) => repository.list('list_plan', selection, page));
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        const nodes = await planOf(statement, mode);
        // The ids are found once, apart (an InitPlan), never joined to the table: as a join, a plan
        // made without the LIMIT's value hash-joined a scan of every row.
        expect(nodes.some((node) => node['Parent Relationship'] === 'InitPlan' && node['Node Type'] === 'Limit')).toBe(
          true,
        );
        expect(nodes.filter((node) => node['Join Type'] === 'Semi' || node['Node Type'] === 'Hash')).toEqual([]);
      }
    },
  );
});
