import { type Kysely, sql } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../../common/locale-rules.js';
import { fieldFor } from '../../fields/field-registry.js';
import {
  type ColumnRename,
  type LocaleStorageState,
  localeStoragePlan,
  ownValueCounts,
  ownValueReads,
  restoredRow,
} from '../../locales/locale-storage-plan.js';
import { localeStorageColumns, otherLocales } from '../../locales/localized-values.js';
import type { DatabaseEngine } from '../engine.js';
import { type IndexPlan, indexesFor } from '../queries/content-index-plan.js';
import { indexStatement } from '../queries/index-statement.js';
import { orderKeyColumnName } from '../queries/internal-names.js';
import {
  addLocaleColumns,
  dropIndexesOn,
  dropLocaleColumns,
  renameLocaleColumns,
  restoreRows,
  rowBatches,
} from '../queries/locale-columns.js';
import { addOrderKeyColumns, dropOrderKeyColumn, orderKeysOf } from '../queries/order-key-columns.js';
import {
  addSearchTextColumns,
  dropSearchTextColumns,
  indexedColumnsOfTable,
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

/**
 * Creates the table of a content type with its indexes and its search index, and the locale
 * storage columns of its localized columns under `locales` (the site's; none without localized
 * columns).
 */
export async function createContentTable(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  columns: readonly ColumnDescriptor[],
  locales: LocalesDocument = DEFAULT_LOCALES,
): Promise<void> {
  const text = engine.columnType('text');
  let builder = db.schema.createTable(table).addColumn('id', text, (col) => col.primaryKey().notNull());
  for (const column of columns) {
    builder = builder.addColumn(column.name, engine.columnType(fieldFor(column.type).sqlType));
  }
  for (const name of searchTextColumnsOf(columns)) builder = builder.addColumn(name, text);
  // Localizable columns are all text, as their locale columns and the missing columns are.
  for (const { name } of localeStorageColumns(locales, columns)) builder = builder.addColumn(name, text);
  await builder
    .addColumn('meta', text)
    .addColumn('created_at', text, (col) => col.notNull())
    .addColumn('updated_at', text, (col) => col.notNull())
    .addColumn('created_by', text)
    .addColumn('updated_by', text)
    .execute();
  await addOrderKeyColumns(db, engine, table, orderKeysOf(engine, columns, locales));

  await createContentIndexes(db, table, indexesFor(engine, table, columns, locales));
  await engine.searchIndex.ensure(db, table, indexedColumnsOfTable(columns, locales));
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
  /** The site's locales, under which the localized columns are stored (DEFAULT_LOCALES when absent). */
  locales?: LocalesDocument;
}

/** What a change of a table dropped of its locales' own values: per column and locale, how many. */
export interface DroppedLocaleValues {
  column: string;
  locale: string;
  count: number;
}

/**
 * Applies a change to a content table, keeping the data of kept and renamed columns. Indexes the
 * change leaves as they are stay (rebuilding one is a pass over every row); those on renamed or
 * dropped columns, and any the new columns do not plan, are dropped first (SQLite cannot drop an
 * indexed column) and the missing ones made after. `rewrite` changes values once the columns
 * have their new names and types (conversions); then the search text columns of body columns the
 * change made or changed are filled from the values (those of unchanged ones are kept) and the
 * search index is rebuilt for the new columns. The locale storage columns follow the localized
 * columns (`localeStoragePlan`): a column localized keeps its value as the default locale's, one
 * no longer localized keeps the default's and drops the others' (counted first and returned), a
 * renamed one takes its locale columns along. Run it inside a transaction: a failure leaves the
 * table as it was.
 */
export async function alterContentTable(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  change: TableChange,
  rewrite?: () => Promise<void>,
): Promise<DroppedLocaleValues[]> {
  const document = change.locales ?? DEFAULT_LOCALES;
  const storageBefore = { document, columns: change.before ?? [] };
  const storageAfter = { document, columns: change.columns };
  const storage = localeStoragePlan(storageBefore, storageAfter, change.renames);
  const droppedValues = await countUnlocalizedValues(db, table, storageBefore, change);
  await engine.searchIndex.drop(db, table);
  const keptTexts = unchangedBodies(change);
  const keptBefore = new Set(keptTexts.values());
  await dropSearchTextColumns(
    db,
    table,
    (change.before ?? []).filter((column) => !keptBefore.has(column.name)),
  );
  const plans = indexesFor(engine, table, change.columns, document);
  // A plan naming a renamed column (either side, or its order key column) may match, by name and
  // SQL, an index that is on another column until the renames have run: it is rebuilt.
  const movedNames = [
    ...change.renames.flatMap(({ from, to }) => [from, to]),
    ...change.drops,
    ...storage.renames.flatMap(({ from, to }) => [from, to]),
    ...storage.drops,
  ];
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
  await applyLocaleStorage(db, engine, table, storageBefore, storageAfter, change.renames, storage);
  // The locale columns exist now: those of text columns get their order key columns (PostgreSQL).
  await addOrderKeyColumns(db, engine, table, orderKeysOf(engine, change.columns, document));
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
  await engine.searchIndex.ensure(db, table, indexedColumnsOfTable(change.columns, document));
  return droppedValues;
}

/**
 * Stores a content table's localized values again after the site's locales changed from
 * `before` to `after` (its columns as they are): the locale columns of added locales are made,
 * every row is stored again from each locale's own values (a new chain or default resolves
 * afresh; values move between a column and its locale columns when the default changes), and the
 * columns of removed locales are dropped with their values. Its indexes and search index are made
 * again for its columns. Run it inside the change's transaction.
 */
export async function restoreLocaleStorage(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  columns: readonly ColumnDescriptor[],
  before: LocalesDocument,
  after: LocalesDocument,
): Promise<void> {
  const storageBefore = { document: before, columns };
  const storageAfter = { document: after, columns };
  const plan = localeStoragePlan(storageBefore, storageAfter);
  if (plan.adds.length === 0 && plan.drops.length === 0 && !plan.restore) return;
  await engine.searchIndex.drop(db, table);
  await applyLocaleStorage(db, engine, table, storageBefore, storageAfter, [], plan);
  await addOrderKeyColumns(db, engine, table, orderKeysOf(engine, columns, after));
  await rebuildContentIndexes(db, engine, table, columns, after);
  await engine.searchIndex.ensure(db, table, indexedColumnsOfTable(columns, after));
}

/** Runs a locale storage plan on a table whose columns are renamed, added and dropped already. */
async function applyLocaleStorage(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  before: LocaleStorageState,
  after: LocaleStorageState,
  renames: readonly ColumnRename[],
  plan: ReturnType<typeof localeStoragePlan>,
): Promise<void> {
  await dropIndexesOn(
    db,
    engine,
    table,
    plan.renames.map((rename) => rename.from),
  );
  // A renamed locale column's order key column would keep its old name: it is made again after.
  for (const { from } of plan.renames) await dropOrderKeyColumn(db, engine, table, from);
  await renameLocaleColumns(db, table, plan.renames);
  await addLocaleColumns(db, engine, table, plan.adds);
  if (plan.restore) await restoreRows(db, table, plan.reads, (row) => restoredRow(before, after, renames, row));
  await dropLocaleColumns(db, engine, table, plan.drops);
}

/**
 * How many own values the locales other than the default hold in each column a change leaves
 * unlocalized (kept, but no longer localized), read before the change drops them.
 */
async function countUnlocalizedValues(
  db: Kysely<unknown>,
  table: string,
  before: LocaleStorageState,
  change: TableChange,
): Promise<DroppedLocaleValues[]> {
  const renamed = new Map(change.renames.map((rename) => [rename.from, rename.to]));
  const after = new Map(change.columns.map((column) => [column.name, column]));
  const unlocalized = before.columns
    .filter((column) => column.localized === true)
    .filter((column) => {
      const now = after.get(renamed.get(column.name) ?? column.name);
      return now !== undefined && now.localized !== true;
    })
    .map((column) => column.name);
  const others = otherLocales(before.document);
  if (unlocalized.length === 0 || others.length === 0) return [];
  const counts = new Map<string, number>();
  for await (const batch of rowBatches(db, table, ownValueReads(before))) {
    for (const row of batch) {
      for (const column of unlocalized) {
        for (const [locale, count] of Object.entries(ownValueCounts(before, row, others, [column]))) {
          const key = JSON.stringify([renamed.get(column) ?? column, locale]);
          counts.set(key, (counts.get(key) ?? 0) + count);
        }
      }
    }
  }
  return [...counts]
    .map(([key, count]) => {
      const [column, locale] = JSON.parse(key) as [string, string];
      return { column, locale, count };
    })
    .filter((dropped) => dropped.count > 0);
}

/**
 * How many own values (not empty, not a fallback) `locales` hold in the localized columns of
 * `table`, stored under `document`.
 */
export async function countOwnLocaleValues(
  db: Kysely<unknown>,
  table: string,
  columns: readonly ColumnDescriptor[],
  document: LocalesDocument,
  locales: readonly string[],
): Promise<number> {
  const state = { document, columns };
  const reads = ownValueReads(state);
  if (reads.length === 0 || locales.length === 0) return 0;
  let total = 0;
  for await (const batch of rowBatches(db, table, reads)) {
    for (const row of batch) {
      for (const count of Object.values(ownValueCounts(state, row, locales))) total += count;
    }
  }
  return total;
}

/**
 * Gives a content table exactly the SQL indexes `indexesFor` plans for its columns: each kept when
 * it has its planned definition, else rebuilt (SQLite cannot rename an index), dropping any index of
 * the table that is not planned and any index elsewhere that has a planned name. For migrations and
 * restores, where indexes may carry old names, be missing or only look like Quire's. `locales`:
 * the site's, under which the table's locale columns are stored (and indexed as their columns are).
 */
export async function rebuildContentIndexes(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  columns: readonly ColumnDescriptor[],
  locales: LocalesDocument = DEFAULT_LOCALES,
): Promise<void> {
  const plans = indexesFor(engine, table, columns, locales);
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
