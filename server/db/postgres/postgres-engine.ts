import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DatabaseEngine, IndexDefinition } from '../engine.js';
import { type IndexShape, indexStatement } from '../queries/index-statement.js';
import { isLocaleColumn } from '../queries/internal-names.js';
import { sendLater } from '../queries/later-statements.js';
import { postgresChangeOrder } from './postgres-change-order.js';
import { postgresMemorySearch } from './postgres-memory-search.js';
import { postgresMigrations } from './postgres-migrations.js';
import { checkRegistryVersion, createRegistryCheck, isTypesChanged } from './postgres-registry-check.js';
import {
  changeNumber,
  createGapTokens,
  createRowChangesTable,
  gapToken,
  registryVersionOf,
  rowsChanged,
} from './postgres-row-changes.js';
import {
  dropSearchText,
  ensureSearchText,
  escapeLike,
  matchesSearchText,
  rowWrittenInSearchIndex,
  searchTextColumns,
} from './postgres-search-index.js';
import { isStaleStatement } from './postgres-statement-names.js';

/**
 * The PostgreSQL engine: Quire's column types mapped so rows read back as on SQLite, search through
 * a side table of JavaScript-folded text (see postgres-search-index.ts), jsonb for tags membership,
 * pg_catalog as the catalog. Everything lives in the connection's current schema (`public` unless
 * the URL's user has another search_path).
 */
export const postgresEngine: DatabaseEngine = {
  kind: 'postgres',
  locksRowsForWrites: true,
  columnType,
  // There is no row-by-row folding in SQL that matches JavaScript's: the search table answers it.
  containsIgnoringCase: (table, columns, keyword) => containsIgnoringCase(table, columns, keyword),
  canHold,
  jsonArrayContains,
  // Its b-tree entries are limited to about 2.7 kB: 200 characters take at most 800 bytes. Held
  // in a stored column beside the text (order-key-columns.ts), so lists walk indexes alone.
  textIndexPrefix: 200,
  // NULL is larger than any value in its b-tree order: lists and their indexes say `nulls first`.
  sortsNullsFirst: false,
  // Not `in (...)`: PostgreSQL planned that as a join of the subquery, weighing every index of the
  // table twice, and with its LIMIT a parameter a generic plan hash-joined a scan of the whole table.
  // As an array it is a subquery run once, then the primary key: quicker to plan and to run.
  idAmong: (ids) => sql<SqlBool>`${sql.id('id')} = any(array${ids})`,
  isUniqueViolation,
  isStaleStatement,
  // A transaction-level advisory lock: released by COMMIT or ROLLBACK, never left behind.
  lockUntilCommit: async (db, key) => {
    // Sent with the read it guards: that read's snapshot is taken once the lock is held.
    await db.executeQuery(sendLater(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.compile(db)));
  },
  searchIndex: {
    ensure: ensureSearchText,
    drop: dropSearchText,
    rowWritten: rowWrittenInSearchIndex,
    // Rows reach the search table in their own write's transaction: nothing waits for a flush.
    flush: async () => {},
    flushes: false,
    indexedColumns: searchTextColumns,
    sql: { canAnswer: () => true, matches: matchesSearchText },
    // Searches are answered from an index in the server's memory once it is built, in step with
    // every server's writes (postgres-memory-search.ts); the search table answers meanwhile.
    memory: postgresMemorySearch,
  },
  // Several servers may share the database: counts kept in memory are checked against these.
  rowChanges: {
    create: createRowChangesTable,
    rowsChanged,
    createGapTokens,
    gapToken,
    changeNumber,
    registryVersionOf,
  },
  registryCheck: { create: createRegistryCheck, check: checkRegistryVersion, isTypesChanged },
  changeOrder: postgresChangeOrder,
  schema: { hasTable, objectType, indexes },
  migrations: postgresMigrations,
};

/**
 * `real` is a double (PostgreSQL's `real` is a 4-byte float, which would round numbers); text is
 * `collate "C"` so that it orders and compares code point by code point, as SQLite's does,
 * whatever the database's locale.
 */
function columnType(type: 'text' | 'integer' | 'real') {
  if (type === 'real') return sql`double precision`;
  if (type === 'text') return sql`text collate "C"`;
  return type;
}

/**
 * PostgreSQL's text cannot hold NUL (binding one fails the statement). Writes refuse NUL before
 * this, so no stored value has one: a filter value with NUL matches nothing, as on SQLite.
 */
function canHold(value: unknown): boolean {
  return typeof value !== 'string' || !value.includes('\u0000');
}

/** Whether the JSON array text in `column` holds `value` as a string element (tags are strings). */
function jsonArrayContains(column: string, value: unknown): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.id(column)})::jsonb @> jsonb_build_array(${value}::text)`;
}

/** SQLSTATE 23505, unique_violation (a primary key or unique index). */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

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
  return (await objectType(db, name)) === 'table';
}

// Tables, indexes, views and sequences share one namespace per schema, as in SQLite.
async function objectType(db: Kysely<unknown>, name: string): Promise<string | null> {
  const result = await sql<{ relkind: string }>`select c.relkind from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname = ${name} limit 1`.execute(db);
  const kind = result.rows[0]?.relkind;
  return kind === undefined ? null : (RELATION_KINDS[kind] ?? 'relation');
}

/**
 * Indexes made by `create index` (not those of primary keys and constraints) of `table`, and any
 * named in `alsoNamed`. A b-tree index without a predicate whose keys are columns, ascending,
 * each with nulls last or first, gets the statement `indexStatement` compiles for one, so it
 * compares equal to a planned index of the same name, uniqueness, keys and null order; any other
 * (an expression, a predicate, another method, `desc`) gets PostgreSQL's own definition, which
 * never does.
 */
async function indexes(
  db: Kysely<unknown>,
  table: string,
  alsoNamed: readonly string[] = [],
): Promise<IndexDefinition[]> {
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

/** The columns and null orders of an index's keys, or null when one is not a column. */
function indexShapeOf(
  keys: readonly { column: string | null; expression: string | null; option: number }[],
): Pick<IndexShape, 'columns' | 'nullsFirst'> | null {
  const columns: string[] = [];
  const nullsFirst: string[] = [];
  for (const key of keys) {
    if (key.option !== 0 && key.option !== 2) return null;
    // An expression (`left(title, 200)`, as list indexes held before order key columns) is rebuilt.
    if (key.column === null) return null;
    columns.push(key.column);
    if (key.option === 2) nullsFirst.push(key.column);
  }
  return { columns, nullsFirst };
}

/**
 * Rows of `table` some of whose `columns` contain `keyword`, as the search table folds them. A
 * locale's stored columns (a search in a locale other than the default) are not in the search
 * table: they are compared as stored, ignoring case as `ilike` does but not accents.
 */
function containsIgnoringCase(table: string, columns: readonly string[], keyword: string): Expression<SqlBool> {
  const inLocale = columns.filter(isLocaleColumn);
  if (inLocale.length === 0) return matchesSearchText(table, columns, [keyword]);
  if (keyword.includes('\u0000')) return sql<SqlBool>`false`;
  const pattern = `%${escapeLike(keyword)}%`;
  const parts: Expression<SqlBool>[] = inLocale.map(
    (column) => sql<SqlBool>`${sql.id(table, column)} ilike ${pattern}`,
  );
  const folded = columns.filter((column) => !isLocaleColumn(column));
  if (folded.length > 0) parts.push(matchesSearchText(table, folded, [keyword]));
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
