import { type Kysely, sql } from 'kysely';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { searchColumnsOf } from '../../common/title-rules.js';
import { fieldFor } from '../fields/field-registry.js';
import type { DatabaseEngine } from './engine.js';
import { contentIndexName } from './internal-names.js';

/**
 * DDL for content tables: one SQL table per content type, one SQL column per content column,
 * plus the system columns. Identifiers here come from validated descriptors, never from requests.
 * Kysely writes the tables, columns and indexes (their SQL is the same on every engine); the search
 * index and the catalog come from the engine.
 */

/** Creates the table of a content type with its indexes and its search index. */
export async function createContentTable(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  columns: readonly ColumnDescriptor[],
): Promise<void> {
  const text = engine.columnType('text');
  let builder = db.schema.createTable(table).addColumn('id', text, (col) => col.primaryKey().notNull());
  for (const column of columns) {
    builder = builder.addColumn(column.name, engine.columnType(fieldFor(column.type).sqlType));
  }
  await builder
    .addColumn('meta', text)
    .addColumn('created_at', text, (col) => col.notNull())
    .addColumn('updated_at', text, (col) => col.notNull())
    .addColumn('created_by', text)
    .addColumn('updated_by', text)
    .execute();

  await createContentIndexes(db, table, indexesFor(table, columns));
  await engine.searchIndex.ensure(db, table, searchColumnsOf(columns));
}

/** Drops a content table (used when creating a type fails half-way, and by type deletion). */
export async function dropContentTable(db: Kysely<unknown>, engine: DatabaseEngine, table: string): Promise<void> {
  await engine.searchIndex.drop(db, table);
  await db.schema.dropTable(table).ifExists().execute();
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
export async function alterContentTable(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  change: TableChange,
): Promise<void> {
  await engine.searchIndex.drop(db, table);
  await dropContentIndexes(db, engine, table);
  for (const { from, to } of change.renames) await db.schema.alterTable(table).renameColumn(from, to).execute();
  for (const name of change.drops) await db.schema.alterTable(table).dropColumn(name).execute();
  for (const column of change.adds) {
    await db.schema
      .alterTable(table)
      .addColumn(column.name, engine.columnType(fieldFor(column.type).sqlType))
      .execute();
  }
  await createContentIndexes(db, table, indexesFor(table, change.columns));
  await engine.searchIndex.ensure(db, table, searchColumnsOf(change.columns));
}

/**
 * Gives a content table exactly the SQL indexes `indexesFor` plans for its columns: kept when each
 * has its planned definition, else all rebuilt (SQLite cannot rename an index), dropping any index
 * of the table that is not planned and any index elsewhere that has a planned name. For migrations
 * and restores, where indexes may carry old names or only look like Quire's.
 */
export async function rebuildContentIndexes(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  columns: readonly ColumnDescriptor[],
): Promise<void> {
  const plans = indexesFor(table, columns);
  const existing = await engine.schema.indexes(
    db,
    table,
    plans.map((plan) => plan.name),
  );
  const planned = new Map(plans.map((plan) => [plan.name, createIndex(db, table, plan).compile().sql]));
  const kept = existing.filter((index) => index.table === table && planned.get(index.name) === index.sql);
  if (kept.length === existing.length && kept.length === plans.length) return;
  for (const index of existing) await db.schema.dropIndex(index.name).execute();
  await createContentIndexes(db, table, plans);
}

async function createContentIndexes(db: Kysely<unknown>, table: string, plans: readonly IndexPlan[]): Promise<void> {
  for (const plan of plans) await createIndex(db, table, plan).execute();
}

function createIndex(db: Kysely<unknown>, table: string, plan: IndexPlan) {
  const create = db.schema.createIndex(plan.name).on(table).columns(plan.columns);
  return plan.unique ? create.unique() : create;
}

/** Drops every index made for a table (not the automatic one of its primary key). */
async function dropContentIndexes(db: Kysely<unknown>, engine: DatabaseEngine, table: string): Promise<void> {
  for (const index of await engine.schema.indexes(db, table)) await db.schema.dropIndex(index.name).execute();
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
