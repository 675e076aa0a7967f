import type { Expression, Kysely, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { DatabaseEngine } from '../engine.js';

/** How a filter compares a column with its value (common/filter-syntax.ts; `:empty` is `eq` null). */
export type ConditionOperator = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'in';

/**
 * One filter: `column <op> value` (`eq` when `op` is absent), or with `match: 'contains'` "the
 * column's JSON array holds value". A null value means "no value" (`eq`) or "has a value" (`ne`);
 * `in` has an array of values. With `through`, the column holds ids of `through.table` rows and the
 * condition is on those rows' `through.column` (a relation by its target's slug).
 */
export interface FilterCondition {
  column: string;
  op?: ConditionOperator;
  value: unknown;
  match?: 'equals' | 'contains';
  through?: { table: string; column: string };
}

/** The SQL of the order comparisons (fixed strings: never from a request). */
const ORDER_SQL = { lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

/** Content tables are created at run time, so Kysely sees them untyped. */
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** The SQL of one list filter; its column (and a relation's target) checked against the registry by the caller. */
export function conditionSql(db: AnyDb, engine: DatabaseEngine, condition: FilterCondition): Expression<SqlBool> {
  const { column, value, match, through } = condition;
  const op = condition.op ?? 'eq';
  const id = sql.id(column);
  if (through) {
    // Through the target's (indexed, unique) slug: `in (select id ...)` keeps this column's index.
    const inner: FilterCondition = { column: through.column, op: op === 'ne' ? 'eq' : op, value };
    const ids = db
      .selectFrom(through.table)
      .select(sql.id('id').as('id'))
      .where(conditionSql(db, engine, inner));
    return op === 'ne' ? sql<SqlBool>`(${id} is null or ${id} not in ${ids})` : sql<SqlBool>`${id} in ${ids}`;
  }
  if (value === null) {
    // `= NULL` would match nothing; tags store an empty list as `[]`.
    const empty = match === 'contains' ? sql<SqlBool>`(${id} is null or ${id} = '[]')` : sql<SqlBool>`${id} is null`;
    return op === 'ne' ? sql<SqlBool>`not (${empty})` : empty;
  }
  const contains = (one: unknown) => engine.jsonArrayContains(column, one);
  switch (op) {
    case 'eq':
      if (!engine.canHold(value)) return sql<SqlBool>`false`;
      return match === 'contains' ? contains(value) : sql<SqlBool>`${id} = ${value}`;
    case 'ne':
      // A row without a value is not equal to the value either.
      return match === 'contains'
        ? sql<SqlBool>`(${id} is null or not (${contains(value)}))`
        : sql<SqlBool>`(${id} is null or ${id} <> ${value})`;
    case 'in': {
      const values = value as unknown[];
      if (match === 'contains') return sql<SqlBool>`(${sql.join(values.map(contains), sql` or `)})`;
      return sql<SqlBool>`${id} in (${sql.join(values)})`;
    }
    default:
      return sql<SqlBool>`${id} ${sql.raw(ORDER_SQL[op])} ${value}`;
  }
}
