import {
  type Expression,
  type Kysely,
  type OrderByModifiers,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { DatabaseEngine, RowQueryStep } from '../engine.js';
import { orderKeyColumnName } from './internal-names.js';

/** A list's order: the column, its direction, and whether it is a `text` column. */
export interface ListOrder {
  order: string;
  desc: boolean;
  /** Where the engine's indexes hold only a text column's first characters, ordered by those first. */
  orderByText?: boolean;
}

/**
 * Puts a query of a content table in a list's order, as the list indexes hold it (every list's,
 * and the in-memory search's pages), so that those indexes serve it. With `keyOnly`, a text order
 * stops at its order key column and `id` (see `offsetPageIds`).
 */
export function listOrdering(engine: DatabaseEngine, page: ListOrder, keyOnly = false): RowQueryStep {
  const direction = page.desc ? 'desc' : 'asc';
  // Nulls before values ascending, after them descending, on every engine (SQLite's own order;
  // the list indexes say the same). `id` is never null and keeps its primary key's order: said
  // with PostgreSQL's `nulls first`, its index could not serve it, and every list in id order (the
  // default) would sort the whole table.
  const modifiers: OrderByModifiers = engine.sortsNullsFirst
    ? direction
    : (order) => (page.desc ? order.desc().nullsLast() : order.asc().nullsFirst());
  // A prefix orders as the whole value does (it differs where the value does, or is shorter), so
  // ordering by its order key column first changes nothing but lets its index serve the order.
  const byKey = page.orderByText && engine.textIndexPrefix !== null;
  return <Q extends SelectQueryBuilder<Record<string, Record<string, unknown>>, string, object>>(query: Q): Q => {
    let byColumn = query;
    if (byKey) byColumn = byColumn.orderBy(sql.id(orderKeyColumnName(page.order)), modifiers) as Q;
    if (byKey && keyOnly) return byColumn.orderBy(sql.id('id'), direction) as Q;
    if (page.order === 'id') return byColumn.orderBy(sql.id('id'), direction) as Q;
    byColumn = byColumn.orderBy(sql.id(page.order), modifiers) as Q;
    return byColumn.orderBy(sql.id('id'), direction) as Q;
  };
}

/**
 * The ids of a list's page past an offset, as a subquery of the list indexes alone: the skipped
 * rows are never read from the table.
 *
 * A text order on PostgreSQL is by the order key column (the text's first characters), then the
 * whole text, then `id`; only the first and last are in the index. The page is found by the key
 * and `id` alone, which is the same page unless it holds a key of full length (a text of that
 * length or longer, which a longer text sharing those characters could follow in the exact order):
 * texts shorter than the key are their key, and ties of full-length keys fill the same positions in
 * both orders, so a page holding none of them holds the same rows. Only then is the exact order
 * walked, reading those rows' texts: both parts are one statement, the second behind a condition
 * PostgreSQL tests once.
 */
export function offsetPageIds(
  engine: DatabaseEngine,
  db: Kysely<Record<string, Record<string, unknown>>>,
  table: string,
  where: Expression<SqlBool> | undefined,
  page: ListOrder & { limit: number; offset: number },
): Expression<unknown> {
  let ids = db.selectFrom(table).select(sql.id('id').as('id'));
  if (where) ids = ids.where(where);
  const exact = listOrdering(engine, page)(ids).limit(page.limit).offset(page.offset);
  const prefix = engine.textIndexPrefix;
  if (!page.orderByText || prefix === null) return exact;
  const key = sql.id(orderKeyColumnName(page.order));
  const keyed = listOrdering(
    engine,
    page,
    true,
  )(ids.select(sql<boolean>`length(${key}) >= ${sql.lit(prefix)}`.as('cut')))
    .limit(page.limit)
    .offset(page.offset);
  return sql`(with quire_page as (${keyed})
    select id from quire_page where not exists (select from quire_page where cut)
    union all
    select id from (${exact}) as quire_exact where exists (select from quire_page where cut))`;
}
