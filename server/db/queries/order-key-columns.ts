import { type Kysely, type KyselyPlugin, sql } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../../common/locale-rules.js';
import { localizedColumnsOf, otherLocales } from '../../locales/localized-values.js';
import type { DatabaseEngine } from '../engine.js';
import { isOrderKeyColumn, localeColumnName, orderKeyColumnName } from './internal-names.js';

/**
 * Order key columns: where an index cannot hold any text (PostgreSQL, `engine.textIndexPrefix`),
 * each `text` column of a content table has a stored generated column beside it holding its first
 * characters, `"quire_key:title" = left(title, 200)`, and the list indexes hold that column.
 *
 * Why a column and not an index on the expression `left(title, 200)`: PostgreSQL walks an index
 * without reading the table (an index-only scan) only when every column the query names is in the
 * index, and `left(title, 200)` names `title`. Past an offset a list's ids are found first (see
 * `offsetPageIds` in list-order.ts); ordered by an expression over a title, each skipped row would
 * be read from the table, where the key column lets the walk stay in the index.
 *
 * The column is PostgreSQL's to compute (`generated always ... stored`): every write fills it, in
 * any server, an import or `psql`. Rows never show it: `withoutOrderKeys` leaves it out of every
 * row read, so the API, revisions and copies see the content columns alone.
 */

/** A text column and its order key column. */
export interface OrderKey {
  column: string;
  key: string;
}

/**
 * `columns` followed by each localized column's stored column in every other locale of `locales`
 * (see server/locales/localized-values.ts), described as the column itself but for its name: lists
 * in a locale filter and order by those, so they are indexed and keyed as the column is.
 */
export function withLocaleValueColumns(
  locales: LocalesDocument,
  columns: readonly ColumnDescriptor[],
): ColumnDescriptor[] {
  const localized = localizedColumnsOf(columns);
  const stored = [...columns];
  for (const locale of localized.length === 0 ? [] : otherLocales(locales)) {
    for (const column of localized)
      stored.push({ ...column, name: localeColumnName(column.name, locale), localized: false });
  }
  return stored;
}

/**
 * The order key columns a content table with `columns` has on `engine` (none on SQLite): one per
 * text column, and one per stored column of a localized text column in each other locale of
 * `locales` (lists in that locale order by it).
 */
export function orderKeysOf(
  engine: DatabaseEngine,
  columns: readonly ColumnDescriptor[],
  locales: LocalesDocument = DEFAULT_LOCALES,
): OrderKey[] {
  if (engine.textIndexPrefix === null) return [];
  return withLocaleValueColumns(locales, columns)
    .filter((column) => column.type === 'text')
    .map((column) => ({ column: column.name, key: orderKeyColumnName(column.name) }));
}

/**
 * Adds the order key columns of `keys` to `table` that it lacks, in one statement (one rewrite of
 * the table). Those it has stay: a table made by this version has them from the start.
 */
export async function addOrderKeyColumns(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  keys: readonly OrderKey[],
): Promise<void> {
  const prefix = engine.textIndexPrefix;
  if (keys.length === 0 || prefix === null) return;
  const declared = engine.columnType('text');
  const type = typeof declared === 'string' ? sql.raw(declared) : declared;
  const adds = keys.map(
    (key) =>
      sql`add column if not exists ${sql.id(key.key)} ${type} generated always as (left(${sql.id(key.column)}, ${sql.lit(prefix)})) stored`,
  );
  await sql`alter table ${sql.table(table)} ${sql.join(adds)}`.execute(db);
}

/**
 * Drops the order key column of `column` if it has one (before `column` itself: PostgreSQL refuses
 * to drop a column a generated one is computed from).
 */
export async function dropOrderKeyColumn(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  column: string,
): Promise<void> {
  if (engine.textIndexPrefix === null) return;
  await sql`alter table ${sql.table(table)} drop column if exists ${sql.id(orderKeyColumnName(column))}`.execute(db);
}

/**
 * A plugin leaving order key columns out of every row a query returns. The columns of a result's
 * rows are the same in each, so the first row tells whether there is anything to leave out: rows of
 * other tables, and of content tables without text columns, pass through untouched.
 */
export const withoutOrderKeys: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => {
    const { rows } = args.result;
    const first = rows[0] as Record<string, unknown> | undefined;
    if (first === undefined || !Object.keys(first).some(isOrderKeyColumn)) return args.result;
    const kept = Object.keys(first).filter((name) => !isOrderKeyColumn(name));
    const stripped = rows.map((row) => {
      const from = row as Record<string, unknown>;
      const to: Record<string, unknown> = {};
      for (const name of kept) to[name] = from[name];
      return to;
    });
    return { ...args.result, rows: stripped as typeof rows };
  },
};
