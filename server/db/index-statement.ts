import { type Kysely, sql } from 'kysely';

/** An index over plain columns, as planned or as read back from a catalog. */
export interface IndexShape {
  name: string;
  table: string;
  columns: readonly string[];
  unique: boolean;
  /** The columns said `nulls first` (PostgreSQL's list orders; SQLite puts nulls first anyway). */
  nullsFirst: readonly string[];
}

/**
 * The `create index` statement of an index over plain columns. Planned indexes are created with it
 * and the PostgreSQL catalog rebuilds existing ones with it, so one planned and one existing index
 * are the same exactly when their compiled statements are equal.
 */
export function indexStatement(db: Kysely<unknown>, index: IndexShape) {
  const create = db.schema.createIndex(index.name).on(index.table);
  const first = new Set(index.nullsFirst);
  const column = (name: string) => (first.has(name) ? sql`${sql.id(name)} nulls first` : sql.id(name));
  const withColumns =
    first.size > 0 ? create.expression(sql.join(index.columns.map(column))) : create.columns([...index.columns]);
  return index.unique ? withColumns.unique() : withColumns;
}
