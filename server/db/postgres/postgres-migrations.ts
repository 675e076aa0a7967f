import { type Kysely, sql } from 'kysely';
import { type IndexShape, indexStatement, internalName } from '../migrations/content-index-steps.js';
import type {
  CatalogIndex,
  ContentTableEngine,
  EngineMigrations,
  EngineStep,
  NumberedIdEngine,
} from '../migrations/migration-engine.js';

/**
 * PostgreSQL's steps of the migrations, by migration name. Frozen as the migrations are: they carry
 * their own SQL rather than calling the engine's code of today (postgres-engine.ts,
 * postgres-search-index.ts, postgres-row-changes.ts, postgres-registry-check.ts), which may
 * change; a later schema change is a new migration with steps of its own.
 */

/** An identity column: ids follow the order rows were written. */
const identity: NumberedIdEngine = {
  numberedId: (create) =>
    create.addColumn('id', 'bigint', (column) => column.primaryKey().generatedByDefaultAsIdentity()),
};

/** The kinds of pg_class entries, as SQLite's sqlite_master would name them where it has one. */
const RELATION_KINDS: Record<string, string> = {
  r: 'table',
  p: 'table',
  i: 'index',
  I: 'index',
  v: 'view',
  m: 'materialized view',
  S: 'sequence',
  f: 'foreign table',
  c: 'type',
  t: 'toast table',
};

async function hasTable(db: Kysely<unknown>, name: string): Promise<boolean> {
  const result = await sql<{ relkind: string }>`select c.relkind from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname = ${name} limit 1`.execute(db);
  const kind = result.rows[0]?.relkind;
  return kind !== undefined && RELATION_KINDS[kind] === 'table';
}

/**
 * Indexes made by `create index` of `table`, and any named in `alsoNamed`. A b-tree index without
 * a predicate whose keys are columns, ascending, each with nulls last or first, gets the statement
 * `indexStatement` compiles for one; any other gets PostgreSQL's own definition, which never
 * equals a planned one.
 */
async function indexes(db: Kysely<unknown>, table: string, alsoNamed: readonly string[]): Promise<CatalogIndex[]> {
  const result = await sql<{
    name: string;
    table: string;
    unique: boolean;
    shaped: boolean;
    keys: { column: string | null; expression: string | null; option: number }[];
    definition: string;
  }>`select i.relname as name, t.relname as table, x.indisunique as unique,
      (x.indpred is null and am.amname = 'btree') as shaped,
      -- Each key: a column, or an expression as PostgreSQL prints it; option 1 = desc, 2 = nulls first.
      array(select json_build_object('column', a.attname::text,
          'expression', case when k.attnum = 0 then pg_get_indexdef(x.indexrelid, k.position::int, false) end,
          'option', k.option)
        from unnest(x.indkey::int2[], x.indoption::int2[]) with ordinality k(attnum, option, position)
        left join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum and k.attnum <> 0
        order by k.position) as keys,
      pg_get_indexdef(x.indexrelid) as definition
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_am am on am.oid = i.relam
    join pg_namespace n on n.oid = i.relnamespace
    where n.nspname = current_schema()
      and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
      and (t.relname = ${table} or i.relname = any(${[...alsoNamed]}::text[]))`.execute(db);
  return result.rows.map((row) => {
    const shape = row.shaped ? indexShapeOf(row.keys) : null;
    const statement = shape ? indexStatement(db, { ...row, ...shape }).compile().sql : row.definition;
    return { name: row.name, table: row.table, sql: statement };
  });
}

/** The columns and null orders of an index's keys, or null when one is not a column (or is `desc`). */
function indexShapeOf(
  keys: readonly { column: string | null; expression: string | null; option: number }[],
): Pick<IndexShape, 'columns' | 'nullsFirst'> | null {
  const columns: string[] = [];
  const nullsFirst: string[] = [];
  for (const key of keys) {
    if (key.option !== 0 && key.option !== 2) return null;
    if (key.column === null) return null;
    columns.push(key.column);
    if (key.option === 2) nullsFirst.push(key.column);
  }
  return { columns, nullsFirst };
}

/** `real` a double, text `collate "C"` (ordered code point by code point, as on SQLite). */
function columnType(type: 'text' | 'integer' | 'real') {
  if (type === 'real') return sql`double precision`;
  if (type === 'text') return sql`text collate "C"`;
  return type;
}

/** Leading characters of a text column its order key column holds (b-tree entries are limited to about 2.7 kB). */
const TEXT_INDEX_PREFIX = 200;

/** Numbers of search-table rows deleted, with the deleting transaction (shared by every content table). */
const SEARCH_REMOVED = 'quire_search_removed';
/** The trigger function that notes deleted search-table rows in SEARCH_REMOVED. */
const NOTE_REMOVED = 'quire_note_search_removed';
/** The search table's own columns, before the search columns: its row number and writing transaction. */
const ROW_NUMBER = 'quire:n';
const WRITTEN_BY = 'quire:x';
/** Rows folded and inserted per statement when a search table is filled. */
const FILL_BATCH = 500;

const searchTextName = (table: string) => internalName('search', table);

/** The columns the search table of `table` covers, or null when it has none (or not in this form). */
async function searchTextColumns(db: Kysely<unknown>, table: string): Promise<string[] | null> {
  const result = await sql<{ name: string }>`select a.attname as name
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname = ${searchTextName(table)} and c.relkind = 'r'
      and a.attnum > 0 and not a.attisdropped
    order by a.attnum`.execute(db);
  if (result.rows.length === 0) return null;
  const names = result.rows.map((row) => row.name);
  if (names[0] !== 'id' || names[1] !== ROW_NUMBER || names[2] !== WRITTEN_BY) return null;
  return names.slice(3);
}

/**
 * The search table of a content table: each row's id, number and writing transaction, and the
 * folded text of its search columns (NFC, then lower-cased), with a pg_trgm GIN index per column;
 * rows deleted from it are noted in SEARCH_REMOVED. Re-created when its columns differ.
 */
async function ensureSearchIndex(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const existing = await searchTextColumns(db, table);
  if (existing !== null && existing.length === columns.length && columns.every((column) => existing.includes(column))) {
    return;
  }
  await sql`drop table if exists ${sql.id(searchTextName(table))}`.execute(db);
  if (columns.length === 0) return;
  const found = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (found.rows.length === 0) await sql`create extension if not exists pg_trgm`.execute(db);
  await ensureRemovedTable(db);
  const side = sql.id(searchTextName(table));
  const definitions = sql.join(columns.map((column) => sql`${sql.id(column)} text collate "C"`));
  await sql`create table ${side} (
    id text collate "C" primary key references ${sql.id(table)} (id) on delete cascade,
    ${sql.id(ROW_NUMBER)} bigint generated always as identity,
    ${sql.id(WRITTEN_BY)} xid8 not null default pg_current_xact_id(),
    ${definitions})`.execute(db);
  await fillSearchText(db, table, columns);
  for (const column of columns) {
    await sql`create index ${sql.id(internalName('search_trgm', table, column))}
      on ${side} using gin (${sql.id(column)} gin_trgm_ops)`.execute(db);
  }
  await sql`create index ${sql.id(internalName('search_changed', table))} on ${side} (${sql.id(WRITTEN_BY)})`.execute(
    db,
  );
  await sql`create unique index ${sql.id(internalName('search_number', table))} on ${side} (${sql.id(ROW_NUMBER)})`.execute(
    db,
  );
  await sql`create trigger ${sql.id(internalName('search_removed', table))} after delete on ${side}
    referencing old table as gone for each statement execute function ${sql.id(NOTE_REMOVED)}(${sql.lit(table)})`.execute(
    db,
  );
}

/** The table of removed search-table rows and the trigger function that fills it (kept when they exist). */
async function ensureRemovedTable(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists ${sql.id(SEARCH_REMOVED)} (
    table_name text collate "C" not null,
    n bigint not null,
    x xid8 not null default pg_current_xact_id(),
    at timestamptz not null default now())`.execute(db);
  await sql`create index if not exists ${sql.id(`${SEARCH_REMOVED}:x`)} on ${sql.id(SEARCH_REMOVED)} (table_name, x)`.execute(
    db,
  );
  await sql`create or replace function ${sql.id(NOTE_REMOVED)}() returns trigger language plpgsql as $$
    begin
      insert into ${sql.id(SEARCH_REMOVED)} (table_name, n) select tg_argv[0], g.${sql.id(ROW_NUMBER)} from gone g;
      return null;
    end $$`.execute(db);
}

/** Reads the content table in id order, a batch at a time, and writes its folded text. */
async function fillSearchText(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const selected = sql.join([sql.id('id'), ...columns.map((column) => sql.id(column))]);
  const names = sql.join([sql.id('id'), ...columns.map((column) => sql.id(column))]);
  const updates = sql.join([
    sql`${sql.id(WRITTEN_BY)} = pg_current_xact_id()`,
    ...columns.map((column) => sql`${sql.id(column)} = excluded.${sql.id(column)}`),
  ]);
  const folded = (value: unknown) =>
    value === null || value === undefined
      ? null
      : (typeof value === 'string' ? value : String(value)).normalize('NFC').toLowerCase();
  let after: string | null = null;
  for (;;) {
    const from: ReturnType<typeof sql> = after === null ? sql`true` : sql`id > ${after}`;
    const batch = await sql<Record<string, unknown>>`select ${selected} from ${sql.id(table)}
      where ${from} order by id limit ${FILL_BATCH}`.execute(db);
    if (batch.rows.length > 0) {
      const values = sql.join(
        batch.rows.map((row) => sql`(${sql.join([String(row.id), ...columns.map((column) => folded(row[column]))])})`),
      );
      await sql`insert into ${sql.id(searchTextName(table))} (${names}) values ${values}
        on conflict (id) do update set ${updates}`.execute(db);
    }
    if (batch.rows.length < FILL_BATCH) return;
    after = String(batch.rows[batch.rows.length - 1].id);
  }
}

/** Content tables: text `collate "C"`, nulls said first, text indexed through order key columns, pg_catalog as catalog. */
const contentTables: ContentTableEngine = {
  schema: { hasTable, indexes },
  columnType,
  textIndexPrefix: TEXT_INDEX_PREFIX,
  sortsNullsFirst: false,
  // Stored generated columns: PostgreSQL fills them on every write; all added in one statement (one rewrite).
  async addOrderKeyColumns(db, table, keys) {
    if (keys.length === 0) return;
    const adds = keys.map(
      (key) =>
        sql`add column if not exists ${sql.id(key.key)} text collate "C" generated always as (left(${sql.id(key.column)}, ${sql.lit(TEXT_INDEX_PREFIX)})) stored`,
    );
    await sql`alter table ${sql.table(table)} ${sql.join(adds)}`.execute(db);
  },
  ensureSearchIndex,
};

/** The table of change numbers: per content table, SHARDS rows each write raises one of. */
const ROW_CHANGES_TABLE = 'quire_row_changes';

/** Creates (or replaces) the function `name(t)`: `t`'s oid, the registry's version and the sum of `column` over `t`'s rows. */
async function createSumFunction(db: Kysely<unknown>, name: string, column: 'changes' | 'gaps'): Promise<void> {
  await sql`create or replace function ${sql.id(name)}(t text) returns text
    language plpgsql stable as $$
    begin
      return concat_ws(':',
        to_regclass(quote_ident(t))::oid,
        (select version from quire_registry_version where id = 1),
        (select coalesce(sum(${sql.id(column)}), 0) from ${sql.id(ROW_CHANGES_TABLE)} where table_name = t));
    end $$`.execute(db);
}

/** The table of change numbers and the function reading one (both kept as they are when they exist). */
const rowChanges: EngineStep = {
  async up(db) {
    await sql`create table if not exists ${sql.id(ROW_CHANGES_TABLE)} (
      table_name text collate "C" not null,
      shard integer not null,
      changes bigint not null,
      primary key (table_name, shard))`.execute(db);
    await createSumFunction(db, 'quire_change_number', 'changes');
  },
};

/**
 * The function a row write's transaction calls just before it commits: it fails the transaction
 * with SQLSTATE QU001 unless the registry is at the version the write's content types were loaded at.
 */
async function createRegistryCheck(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function ${sql.id('quire_registry_is')}(expected bigint) returns void
    language plpgsql volatile as $$
    begin
      if (select version from quire_registry_version where id = 1) is distinct from expected then
        raise exception 'content types changed since this write''s were loaded (version %)', expected
          using errcode = '${sql.raw('QU001')}';
      end if;
    end $$`.execute(db);
}

/** PostgreSQL's steps, by migration name. */
export const postgresMigrations: EngineMigrations = {
  '002-starter-types': contentTables,
  '004-article-and-menu-types': contentTables,
  '005-search-index': contentTables,
  '007-search-index-batches': contentTables,
  // No PostgreSQL database is older than 008: nothing carries the names before it.
  '008-internal-namespace': { ...contentTables, dropOlderSearchNames: async () => {} },
  '010-media-table': {
    async up(db) {
      await db.schema
        .createTable('quire_media')
        .addColumn('path', 'text', (column) => column.primaryKey())
        .addColumn('type', 'text', (column) => column.notNull())
        .addColumn('size', 'integer', (column) => column.notNull())
        .addColumn('bytes', 'bytea', (column) => column.notNull())
        .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '011-list-indexes': contentTables,
  '013-revisions': identity,
  '014-search-deletes-noted': contentTables,
  '015-schedules-and-hooks': identity,
  '016-row-changes': rowChanges,
  '017-list-index-null-order': contentTables,
  '018-search-index-in-memory': contentTables,
  '019-change-number-function': rowChanges,
  '020-search-row-numbers': contentTables,
  '021-order-key-columns': contentTables,
  '022-registry-check': { up: createRegistryCheck },
  '023-slug-gap-tokens': {
    // Each shard's count of the writes that may free a slug (updates and deletes), and the function reading a table's.
    async up(db) {
      await sql`alter table ${sql.id(ROW_CHANGES_TABLE)} add column if not exists gaps bigint not null default 0`.execute(
        db,
      );
      await createSumFunction(db, 'quire_gap_token', 'gaps');
    },
  },
  '026-audit-log': identity,
  // The writing transaction's number (see postgres-change-order.ts for how reads use it).
  '030-change-feed': {
    ...identity,
    transactionColumn: (create) =>
      create.addColumn('tx', 'bigint', (column) =>
        column.notNull().defaultTo(sql`(pg_current_xact_id()::text::bigint)`),
      ),
  },
  '035-search-text-columns': contentTables,
};
