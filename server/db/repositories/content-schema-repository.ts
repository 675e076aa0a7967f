import { type Kysely, sql } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { fieldFor } from '../../fields/field-registry.js';
import type { DatabaseEngine } from '../engine.js';
import { type IndexPlan, indexesFor } from '../queries/content-index-plan.js';
import { indexStatement } from '../queries/index-statement.js';
import { orderKeyColumnName } from '../queries/internal-names.js';
import { addOrderKeyColumns, dropOrderKeyColumn, orderKeysOf } from '../queries/order-key-columns.js';
import {
  addSearchTextColumns,
  dropSearchTextColumns,
  indexedSearchColumnsOf,
  renameSearchTextColumns,
  searchTextColumnsOf,
  unchangedBodies,
} from '../queries/search-text-columns.js';

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
  for (const name of searchTextColumnsOf(columns)) builder = builder.addColumn(name, text);
  await builder
    .addColumn('meta', text)
    .addColumn('created_at', text, (col) => col.notNull())
    .addColumn('updated_at', text, (col) => col.notNull())
    .addColumn('created_by', text)
    .addColumn('updated_by', text)
    .execute();
  await addOrderKeyColumns(db, engine, table, orderKeysOf(engine, columns));

  await createContentIndexes(db, table, indexesFor(engine, table, columns));
  await engine.searchIndex.ensure(db, table, indexedSearchColumnsOf(columns));
}

/** Drops a content table (used when creating a type fails half-way, and by type deletion). */
export async function dropContentTable(db: Kysely<unknown>, engine: DatabaseEngine, table: string): Promise<void> {
  await engine.searchIndex.drop(db, table);
  await db.schema.dropTable(table).ifExists().execute();
}

/**
 * How a content type's table changes: columns renamed, dropped and added, and the columns after
 * (and before, whose search text columns are made again for the columns after).
 */
export interface TableChange {
  renames: readonly { from: string; to: string }[];
  drops: readonly string[];
  adds: readonly ColumnDescriptor[];
  columns: readonly ColumnDescriptor[];
  before?: readonly ColumnDescriptor[];
}

/**
 * Applies a change to a content table, keeping the data of kept and renamed columns. Indexes the
 * change leaves as they are stay (rebuilding one is a pass over every row); those on renamed or
 * dropped columns, and any the new columns do not plan, are dropped first (SQLite cannot drop an
 * indexed column) and the missing ones made after. `rewrite` changes values once the columns
 * have their new names and types (conversions); then the search text columns of body columns the
 * change made or changed are filled from the values (those of unchanged ones are kept) and the
 * search index is rebuilt for the new columns. Run it inside a transaction: a
 * failure leaves the table as it was.
 */
export async function alterContentTable(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  change: TableChange,
  rewrite?: () => Promise<void>,
): Promise<void> {
  await engine.searchIndex.drop(db, table);
  const keptTexts = unchangedBodies(change);
  const keptBefore = new Set(keptTexts.values());
  await dropSearchTextColumns(
    db,
    table,
    (change.before ?? []).filter((column) => !keptBefore.has(column.name)),
  );
  const plans = indexesFor(engine, table, change.columns);
  // A plan naming a renamed column (either side, or its order key column) may match, by name and
  // SQL, an index that is on another column until the renames have run: it is rebuilt.
  const movedNames = [...change.renames.flatMap(({ from, to }) => [from, to]), ...change.drops];
  const moved = new Set([...movedNames, ...movedNames.map(orderKeyColumnName)]);
  const stable = plans.filter((plan) => !plan.columns.some((column) => moved.has(column)));
  const kept = await keepPlannedIndexes(db, engine, table, stable);
  const keys = new Set(orderKeysOf(engine, change.columns).map((key) => key.column));
  for (const { from, to } of change.renames) {
    await db.schema.alterTable(table).renameColumn(from, to).execute();
    // The key's expression follows its column; its name is made to follow too.
    if (keys.has(to)) {
      await db.schema.alterTable(table).renameColumn(orderKeyColumnName(from), orderKeyColumnName(to)).execute();
    }
  }
  await renameSearchTextColumns(db, table, keptTexts);
  for (const name of change.drops) {
    await dropOrderKeyColumn(db, engine, table, name);
    await db.schema.alterTable(table).dropColumn(name).execute();
  }
  for (const column of change.adds) {
    await db.schema
      .alterTable(table)
      .addColumn(column.name, engine.columnType(fieldFor(column.type).sqlType))
      .execute();
  }
  await addOrderKeyColumns(db, engine, table, orderKeysOf(engine, change.adds));
  await createContentIndexes(
    db,
    table,
    plans.filter((plan) => !kept.has(plan.name)),
  );
  await rewrite?.();
  await addSearchTextColumns(
    db,
    engine,
    table,
    change.columns.filter((column) => !keptTexts.has(column.name)),
  );
  await engine.searchIndex.ensure(db, table, indexedSearchColumnsOf(change.columns));
}

/**
 * Gives a content table exactly the SQL indexes `indexesFor` plans for its columns: each kept when
 * it has its planned definition, else rebuilt (SQLite cannot rename an index), dropping any index of
 * the table that is not planned and any index elsewhere that has a planned name. For migrations and
 * restores, where indexes may carry old names, be missing or only look like Quire's.
 */
export async function rebuildContentIndexes(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  columns: readonly ColumnDescriptor[],
): Promise<void> {
  const plans = indexesFor(engine, table, columns);
  const kept = await keepPlannedIndexes(db, engine, table, plans);
  await createContentIndexes(
    db,
    table,
    plans.filter((plan) => !kept.has(plan.name)),
  );
}

/**
 * Drops every index of `table` that is not one of `plans` as planned (name, table, uniqueness and
 * columns), and any index elsewhere holding a planned name; returns the names of those kept.
 */
async function keepPlannedIndexes(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  plans: readonly IndexPlan[],
): Promise<Set<string>> {
  const existing = await engine.schema.indexes(
    db,
    table,
    plans.map((plan) => plan.name),
  );
  const planned = new Map(plans.map((plan) => [plan.name, indexStatement(db, { ...plan, table }).compile().sql]));
  const kept = new Set<string>();
  for (const index of existing) {
    if (index.table === table && planned.get(index.name) === index.sql) kept.add(index.name);
    else await db.schema.dropIndex(index.name).execute();
  }
  return kept;
}

async function createContentIndexes(db: Kysely<unknown>, table: string, plans: readonly IndexPlan[]): Promise<void> {
  for (const plan of plans) await indexStatement(db, { ...plan, table }).execute();
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
