import { type OrderByModifiers, type SelectQueryBuilder, sql } from 'kysely';
import type { DatabaseEngine, RowQueryStep } from './engine.js';
import { prefixedColumn } from './index-statement.js';

/** A list's order: the column, its direction, and whether it is a `text` column. */
export interface ListOrder {
  order: string;
  desc: boolean;
  /** Where the engine's indexes hold only a text column's first characters, ordered by those first. */
  orderByText?: boolean;
}

/**
 * Puts a query of a content table in a list's order, as the list indexes hold it (every list's,
 * and the in-memory search's pages), so that those indexes serve it.
 */
export function listOrdering(engine: DatabaseEngine, page: ListOrder): RowQueryStep {
  const direction = page.desc ? 'desc' : 'asc';
  // Nulls before values ascending, after them descending, on every engine (SQLite's own order;
  // the list indexes say the same). `id` is never null and keeps its primary key's order: said
  // with PostgreSQL's `nulls first`, its index could not serve it (every list in id order, the
  // default, sorted the whole table: 22 ms at 100k rows for a page of one).
  const modifiers: OrderByModifiers = engine.sortsNullsFirst
    ? direction
    : (order) => (page.desc ? order.desc().nullsLast() : order.asc().nullsFirst());
  // A prefix orders as the whole value does (it differs where the value does, or is shorter), so
  // ordering by it first changes nothing but lets its index serve the order.
  const prefix = page.orderByText ? (engine.textIndexPrefix ?? undefined) : undefined;
  return <Q extends SelectQueryBuilder<Record<string, Record<string, unknown>>, string, object>>(query: Q): Q => {
    let byColumn = query;
    if (prefix !== undefined) byColumn = byColumn.orderBy(prefixedColumn(page.order, prefix), modifiers) as Q;
    if (page.order === 'id') return byColumn.orderBy(sql.id('id'), direction) as Q;
    byColumn = byColumn.orderBy(sql.id(page.order), modifiers) as Q;
    return byColumn.orderBy(sql.id('id'), direction) as Q;
  };
}
