import { type Kysely, sql } from 'kysely';

/** An index over columns, as planned or as read from a catalog. */
export interface IndexShape {
  name: string;
  table: string;
  columns: readonly string[];
  unique: boolean;
  /** The columns said `nulls first` (PostgreSQL's list orders; SQLite puts nulls first anyway). */
  nullsFirst: readonly string[];
}

/**
 * The `create index` statement of an index. Planned indexes are created with it and the PostgreSQL
 * catalog rebuilds existing ones with it, so one planned and one existing index are the same
 * exactly when their compiled statements are equal.
 */
export function indexStatement(db: Kysely<unknown>, index: IndexShape) {
  const create = db.schema.createIndex(index.name).on(index.table);
  const first = new Set(index.nullsFirst);
  const key = (column: string) => (first.has(column) ? sql`${sql.id(column)} nulls first` : sql`${sql.id(column)}`);
  const withColumns =
    first.size === 0 ? create.columns([...index.columns]) : create.expression(sql.join(index.columns.map(key)));
  return index.unique ? withColumns.unique() : withColumns;
}
