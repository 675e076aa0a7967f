import { type Kysely, sql } from 'kysely';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { searchColumnsOf } from '../../common/title-rules.js';
import { fieldFor } from '../fields/field-registry.js';
import { contentIndexName } from './internal-names.js';
import { dropSearchIndex, ensureSearchIndex } from './sqlite-search-index.js';

/**
 * DDL for content tables: one SQL table per content type, one SQL column per content column,
 * plus the system columns. Identifiers here come from validated descriptors, never from requests.
 */

/** Creates the table of a content type with its indexes and its search index. */
export async function createContentTable(
  db: Kysely<unknown>,
  table: string,
  columns: readonly ColumnDescriptor[],
): Promise<void> {
  let builder = db.schema.createTable(table).addColumn('id', 'text', (col) => col.primaryKey().notNull());
  for (const column of columns) {
    builder = builder.addColumn(column.name, fieldFor(column.type).sqlType);
  }
  await builder
    .addColumn('meta', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text')
    .addColumn('updated_by', 'text')
    .execute();

  await createContentIndexes(db, table, indexesFor(table, columns));
  await ensureSearchIndex(db, table, searchColumnsOf(columns));
}

/** Drops a content table (used when creating a type fails half-way, and by type deletion). */
export async function dropContentTable(db: Kysely<unknown>, table: string): Promise<void> {
  await dropSearchIndex(db, table);
  await db.schema.dropTable(table).ifExists().execute();
}

/** Whether a table exists. */
export async function tableExists(db: Kysely<unknown>, table: string): Promise<boolean> {
  const result = await sql<{
    found: number;
  }>`select count(*) as found from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  return (result.rows[0]?.found ?? 0) > 0;
}

/**
 * What kind of schema object (`table`, `index`, `view`, `trigger`) already has this name, or null.
 * A new content table must not take any of them: tables, indexes and views share one namespace.
 */
export async function schemaObjectType(db: Kysely<unknown>, name: string): Promise<string | null> {
  const result = await sql<{ type: string }>`select type from sqlite_master where name = ${name} limit 1`.execute(db);
  return result.rows[0]?.type ?? null;
}

/** Column types whose equality filters and orders get an index. */
const INDEXED_TYPES = new Set(['select', 'datetime', 'date', 'number', 'boolean', 'relation']);

interface IndexPlan {
  name: string;
  columns: string[];
  unique: boolean;
}

/**
 * Indexes that make the list endpoint's filters and orders cheap: slugs unique, one index per
 * select and datetime column, and (select, datetime, id) pairs for the common "published, newest
 * first" listing. Text columns are not indexed: search uses its own path.
 */
function indexesFor(table: string, columns: readonly ColumnDescriptor[]): IndexPlan[] {
  const plans: IndexPlan[] = [];
  const selects = columns.filter((column) => column.type === 'select');
  const equalityFiltered = columns.filter(
    (column) => INDEXED_TYPES.has(column.type) && column.type !== 'select' && column.type !== 'datetime',
  );
  const datetimes = columns.filter((column) => column.type === 'datetime');
  // Non-unique indexes end with `id`, the tie-breaker of every order, which their names leave out.
  const plan = (columns: string[], unique: boolean) => ({
    name: contentIndexName(table, unique ? columns : columns.slice(0, -1), unique),
    columns,
    unique,
  });
  for (const column of columns) {
    if (column.type === 'slug') plans.push(plan([column.name], true));
  }
  for (const column of [...selects, ...datetimes, ...equalityFiltered]) plans.push(plan([column.name, 'id'], false));
  for (const select of selects) {
    for (const datetime of datetimes) plans.push(plan([select.name, datetime.name, 'id'], false));
  }
  plans.push(plan(['created_at', 'id'], false));
  plans.push(plan(['updated_at', 'id'], false));
  return plans;
}

/** How a content type's table changes: columns renamed, dropped and added, and the columns after. */
export interface TableChange {
  renames: readonly { from: string; to: string }[];
  drops: readonly string[];
  adds: readonly ColumnDescriptor[];
  columns: readonly ColumnDescriptor[];
}

/**
 * Applies a change to a content table, keeping the data of kept and renamed columns. SQLite cannot
 * drop an indexed column, so the table's indexes and search index are dropped first and rebuilt
 * for the new columns after. Run it inside a transaction: a failure leaves the table as it was.
 */
export async function alterContentTable(db: Kysely<unknown>, table: string, change: TableChange): Promise<void> {
  await dropSearchIndex(db, table);
  await dropContentIndexes(db, table);
  for (const { from, to } of change.renames) await db.schema.alterTable(table).renameColumn(from, to).execute();
  for (const name of change.drops) await db.schema.alterTable(table).dropColumn(name).execute();
  for (const column of change.adds) {
    await db.schema.alterTable(table).addColumn(column.name, fieldFor(column.type).sqlType).execute();
  }
  await createContentIndexes(db, table, indexesFor(table, change.columns));
  await ensureSearchIndex(db, table, searchColumnsOf(change.columns));
}

/**
 * Gives a content table exactly the SQL indexes `indexesFor` plans for its columns: kept when each
 * has its planned definition, else all rebuilt (SQLite cannot rename an index), dropping any index
 * of the table that is not planned and any index elsewhere that has a planned name. For migrations
 * and restores, where indexes may carry old names or only look like Quire's.
 */
export async function rebuildContentIndexes(
  db: Kysely<unknown>,
  table: string,
  columns: readonly ColumnDescriptor[],
): Promise<void> {
  const plans = indexesFor(table, columns);
  const names = plans.map((plan) => plan.name);
  const existing = await sql<{ name: string; tbl_name: string; sql: string }>`select name, tbl_name, sql
    from sqlite_master where type = 'index' and sql is not null
      and (tbl_name = ${table} or name in (${sql.join(names)}))`.execute(db);
  const planned = new Map(
    plans.map((plan) => [plan.name, normalizedIndexSql(createIndex(db, table, plan).compile().sql)]),
  );
  const kept = existing.rows.filter(
    (index) => index.tbl_name === table && planned.get(index.name) === normalizedIndexSql(index.sql),
  );
  if (kept.length === existing.rows.length && kept.length === plans.length) return;
  for (const index of existing.rows) await db.schema.dropIndex(index.name).execute();
  await createContentIndexes(db, table, plans);
}

async function createContentIndexes(db: Kysely<unknown>, table: string, plans: readonly IndexPlan[]): Promise<void> {
  for (const plan of plans) await createIndex(db, table, plan).execute();
}

function createIndex(db: Kysely<unknown>, table: string, plan: IndexPlan) {
  const create = db.schema.createIndex(plan.name).on(table).columns(plan.columns);
  return plan.unique ? create.unique() : create;
}

/** SQLite keeps an index's SQL as written, but upper-cases its leading `CREATE [UNIQUE] INDEX`. */
function normalizedIndexSql(text: string): string {
  return text.replace(/^\s*create\s+(?:unique\s+)?index\b/i, (start) => start.toLowerCase().replace(/\s+/g, ' '));
}

/** Drops every index made for a table (not the automatic one of its primary key, which has no SQL). */
async function dropContentIndexes(db: Kysely<unknown>, table: string): Promise<void> {
  const indexes = await sql<{ name: string }>`select name from sqlite_master
    where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db);
  for (const index of indexes.rows) await db.schema.dropIndex(index.name).execute();
}

/** How many rows of `table` hold one of `values` in `column` (to refuse removing a used option). */
export async function countRowsWithValues(
  db: Kysely<unknown>,
  table: string,
  column: string,
  values: readonly string[],
): Promise<number> {
  if (values.length === 0) return 0;
  const result = await (db as Kysely<Record<string, Record<string, unknown>>>)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sql.id(column), 'in', values)
    .executeTakeFirstOrThrow();
  return Number(result.n);
}
