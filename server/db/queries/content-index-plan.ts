import type { ColumnDescriptor, ColumnType } from '../../../common/api-contract.js';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../../common/locale-rules.js';
import type { DatabaseEngine } from '../engine.js';
import { contentCountIndexName, contentIndexName } from './internal-names.js';
import { orderKeysOf, withLocaleValueColumns } from './order-key-columns.js';

/** One SQL index of a content table, as planned. */
export interface IndexPlan {
  name: string;
  columns: string[];
  unique: boolean;
  /**
   * The columns whose nulls come first in the index (`nulls first`), where the engine would put them
   * last (`sortsNullsFirst`): lists order nulls first on every engine, and an index in another order
   * cannot serve them. `id` is never null and keeps the engine's order, which its primary key has.
   */
  nullsFirst: string[];
}

/**
 * Column types whose values are short enough for any index (and are ordered or filtered on by
 * lists). `text` joins them, whole where the engine can index any text, else by its first
 * characters; `textarea` and `markdown` (bodies up to 1 MB) never do: an index would copy every
 * body, and ordering by one is a sort.
 */
const ORDER_INDEXED: ReadonlySet<ColumnType> = new Set<ColumnType>([
  'select',
  'relation',
  'datetime',
  'date',
  'number',
  'boolean',
  'image',
  'slug',
]);

/** Column types lists are filtered by with an order: each gets a composite index with every order. */
const FILTER_INDEXED: ReadonlySet<ColumnType> = new Set<ColumnType>(['select', 'relation']);

/**
 * System columns lists are ordered by. `created_by` and `updated_by` (editor names) are orderable
 * too but not indexed: each column costs every write 1 + (select and relation columns) index
 * entries, and sorting a list by who wrote it is rare enough to pay a sort instead.
 */
const SYSTEM_ORDERS = ['created_at', 'updated_at'] as const;

/**
 * The indexes that make every list cheap, whatever its select or relation filter and its order:
 *
 * - `(o, id)` for every indexed orderable column `o` (the order and its `id` tie-breaker walk the
 *   index; SQLite skips an offset's rows in the index without reading them);
 * - `(f, o, id)` for every select or relation column `f` and every other such `o`, and `(f, id)`:
 *   a filtered list in any order is one range of one index;
 * - `(f)` alone for every select or relation column: the narrowest index holding `f`, so the exact
 *   count of a filter value (and of all rows) reads the fewest pages;
 * - slugs unique.
 *
 * Where an index cannot hold any text (`engine.textIndexPrefix`), a `text` column's indexes hold its
 * order key column, its first characters (order-key-columns.ts), and lists ordered by it order by
 * those first (see list-order.ts).
 * Bodies (`textarea`, `markdown`) are not indexed: lists ordered by them sort.
 *
 * A localized column's stored column in each other locale of `locales` (its value there after
 * fallback, which lists in that locale filter and order by) is planned as the column itself is: a
 * list in any locale walks an index, and a localized slug is unique per locale.
 */
export function indexesFor(
  engine: DatabaseEngine,
  table: string,
  contentColumns: readonly ColumnDescriptor[],
  locales: LocalesDocument = DEFAULT_LOCALES,
): IndexPlan[] {
  const columns = withLocaleValueColumns(locales, contentColumns);
  const indexed = (type: ColumnType) => ORDER_INDEXED.has(type) || type === 'text';
  const orders = [...columns.filter((column) => indexed(column.type)).map((column) => column.name), ...SYSTEM_ORDERS];
  // Where an index cannot hold any text, a text column is indexed through its order key column.
  const keys = new Map(orderKeysOf(engine, contentColumns, locales).map(({ column, key }) => [column, key]));
  const indexedAs = (name: string) => keys.get(name) ?? name;
  const filters = columns.filter((column) => FILTER_INDEXED.has(column.type)).map((column) => column.name);
  // Non-unique indexes end with `id`, the tie-breaker of every order, which their names leave out;
  // they are named after the content columns, whichever column holds them.
  const ordered = (columns: string[]): IndexPlan => ({
    name: contentIndexName(table, columns, false),
    columns: [...columns.map(indexedAs), 'id'],
    unique: false,
    nullsFirst: engine.sortsNullsFirst ? [] : columns.map(indexedAs),
  });
  const plans: IndexPlan[] = [];
  for (const column of columns) {
    if (column.type === 'slug')
      plans.push({
        name: contentIndexName(table, [column.name], true),
        columns: [column.name],
        unique: true,
        nullsFirst: [],
      });
  }
  for (const order of orders) plans.push(ordered([order]));
  for (const filter of filters) {
    // Counts look values up; the order of nulls does not matter to them.
    plans.push({
      name: contentCountIndexName(table, filter),
      columns: [filter],
      unique: false,
      nullsFirst: [],
    });
    for (const order of orders) if (order !== filter) plans.push(ordered([filter, order]));
  }
  return plans;
}
