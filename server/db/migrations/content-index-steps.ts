import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { ContentTableEngine, OrderKey } from './migration-engine.js';

/**
 * The SQL indexes of content tables and the names of their internal objects, as the migrations
 * make them. A frozen copy: the code that makes them for today's writes lives in `queries/` and may
 * change; these steps may not, or a migration that ran once would make something else when run
 * again on an older database.
 */

/** The column types of content columns, as their descriptors name them. */
export type StoredColumnType =
  | 'text'
  | 'slug'
  | 'select'
  | 'datetime'
  | 'textarea'
  | 'markdown'
  | 'number'
  | 'boolean'
  | 'date'
  | 'image'
  | 'tags'
  | 'relation';

/** A content column as the registry stores it (its `columns` JSON). */
export interface StoredColumn {
  name: string;
  label: string;
  type: StoredColumnType;
  required: boolean;
  parent?: string;
  options?: { id: string; text: string }[];
  target?: string;
}

/** The kinds of internal objects, the first part of their names. */
export type InternalKind =
  | 'fts'
  | 'fts_pending'
  | 'fts_trigger'
  | 'idx'
  | 'unique'
  | 'count'
  | 'search'
  | 'search_trgm'
  | 'search_changed'
  | 'search_number'
  | 'search_removed';

/** Longest name, in bytes: PostgreSQL cuts identifiers at 63. */
const MAX_NAME_BYTES = 63;

/** Hex digits of the hash that ends a shortened name. */
const HASH_LENGTH = 16;

/**
 * The name of an internal object of `table`: `quire_<kind>:<table>[:<part>...]`. Content tables
 * never start with `quire_` and never hold `:`, so no content table can take it.
 */
export function internalName(kind: InternalKind, table: string, ...parts: readonly string[]): string {
  return fitted(`quire_${kind}:${[table, ...parts].join(':')}`);
}

/** A SQL index of a content table over `columns` (the `id` tie-breaker it may end with is not named). */
export function contentIndexName(table: string, columns: readonly string[], unique: boolean): string {
  return internalName(unique ? 'unique' : 'idx', table, ...columns);
}

/** The stored column holding the first characters of text column `column`. */
function orderKeyColumnName(column: string): string {
  return fitted(`quire_key:${column}`);
}

/** The stored column holding the text a search finds in body column `column` (migration 035). */
export function searchTextColumnName(column: string): string {
  return fitted(`quire_text:${column}`);
}

/** The name itself when it fits in 63 bytes, else its start, `~` and a hash of all of it. */
function fitted(name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length <= MAX_NAME_BYTES) return name;
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, HASH_LENGTH);
  const kept = bytes.subarray(0, MAX_NAME_BYTES - HASH_LENGTH - 1).toString('utf8');
  return `${kept}~${hash}`;
}

/** The order key columns a content table with `columns` has on `engine` (none where indexes hold any text). */
export function orderKeysOf(engine: ContentTableEngine, columns: readonly StoredColumn[]): OrderKey[] {
  if (engine.textIndexPrefix === null) return [];
  return columns
    .filter((column) => column.type === 'text')
    .map((column) => ({ column: column.name, key: orderKeyColumnName(column.name) }));
}

/** One SQL index of a content table. */
export interface IndexShape {
  name: string;
  table: string;
  columns: readonly string[];
  unique: boolean;
  /** The columns said `nulls first`. */
  nullsFirst: readonly string[];
}

/**
 * The `create index` statement of an index. An engine's catalog gives an existing index as the
 * statement this compiles for it, so a planned and an existing index are the same exactly when
 * their statements are equal.
 */
export function indexStatement(db: Kysely<unknown>, index: IndexShape) {
  const create = db.schema.createIndex(index.name).on(index.table);
  const first = new Set(index.nullsFirst);
  const key = (column: string) => (first.has(column) ? sql`${sql.id(column)} nulls first` : sql`${sql.id(column)}`);
  const withColumns =
    first.size === 0 ? create.columns([...index.columns]) : create.expression(sql.join(index.columns.map(key)));
  return index.unique ? withColumns.unique() : withColumns;
}

type IndexPlan = Omit<IndexShape, 'table'>;

/** Column types indexed for lists' orders (with `text`); bodies (`textarea`, `markdown`) are not. */
const ORDER_INDEXED: ReadonlySet<StoredColumnType> = new Set<StoredColumnType>([
  'select',
  'relation',
  'datetime',
  'date',
  'number',
  'boolean',
  'image',
  'slug',
]);

/** Column types lists are filtered by: each gets a composite index with every order. */
const FILTER_INDEXED: ReadonlySet<StoredColumnType> = new Set<StoredColumnType>(['select', 'relation']);

/** System columns lists are ordered by that are indexed. */
const SYSTEM_ORDERS = ['created_at', 'updated_at'] as const;

/**
 * The indexes of a content table: `(o, id)` for every indexed order `o`; `(f, o, id)` and `(f, id)`
 * for every select or relation column `f`, and `(f)` alone for its counts; slugs unique. A `text`
 * column is indexed through its order key column where the engine has one.
 */
function indexesFor(engine: ContentTableEngine, table: string, columns: readonly StoredColumn[]): IndexPlan[] {
  const indexed = (type: StoredColumnType) => ORDER_INDEXED.has(type) || type === 'text';
  const orders = [...columns.filter((column) => indexed(column.type)).map((column) => column.name), ...SYSTEM_ORDERS];
  const keys = new Map(orderKeysOf(engine, columns).map(({ column, key }) => [column, key]));
  const indexedAs = (name: string) => keys.get(name) ?? name;
  const filters = columns.filter((column) => FILTER_INDEXED.has(column.type)).map((column) => column.name);
  const ordered = (names: string[]): IndexPlan => ({
    name: contentIndexName(table, names, false),
    columns: [...names.map(indexedAs), 'id'],
    unique: false,
    nullsFirst: engine.sortsNullsFirst ? [] : names.map(indexedAs),
  });
  const plans: IndexPlan[] = [];
  for (const column of columns) {
    if (column.type === 'slug') {
      plans.push({
        name: contentIndexName(table, [column.name], true),
        columns: [column.name],
        unique: true,
        nullsFirst: [],
      });
    }
  }
  for (const order of orders) plans.push(ordered([order]));
  for (const filter of filters) {
    plans.push({ name: internalName('count', table, filter), columns: [filter], unique: false, nullsFirst: [] });
    for (const order of orders) if (order !== filter) plans.push(ordered([filter, order]));
  }
  return plans;
}

/** Creates every planned index of a new content table. */
export async function createContentIndexes(
  db: Kysely<unknown>,
  engine: ContentTableEngine,
  table: string,
  columns: readonly StoredColumn[],
): Promise<void> {
  for (const plan of indexesFor(engine, table, columns)) await indexStatement(db, { ...plan, table }).execute();
}

/**
 * Gives a content table exactly its planned indexes: each kept when it has its planned definition,
 * else rebuilt, dropping any index of the table that is not planned and any index elsewhere that
 * has a planned name.
 */
export async function rebuildContentIndexes(
  db: Kysely<unknown>,
  engine: ContentTableEngine,
  table: string,
  columns: readonly StoredColumn[],
): Promise<void> {
  const plans = indexesFor(engine, table, columns);
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
  for (const plan of plans) {
    if (!kept.has(plan.name)) await indexStatement(db, { ...plan, table }).execute();
  }
}
