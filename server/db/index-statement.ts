import { type Kysely, type RawBuilder, sql } from 'kysely';

/** An index over columns (some by a prefix of their text), as planned or as read from a catalog. */
export interface IndexShape {
  name: string;
  table: string;
  columns: readonly string[];
  unique: boolean;
  /** The columns said `nulls first` (PostgreSQL's list orders; SQLite puts nulls first anyway). */
  nullsFirst: readonly string[];
  /** Columns indexed by their first n characters (`left(column, n)`), by name. */
  prefixes: Readonly<Record<string, number>>;
}

/** The index key of a column: the column, or its first `prefix` characters. */
export function prefixedColumn(column: string, prefix: number | undefined): RawBuilder<unknown> {
  return prefix === undefined ? sql`${sql.id(column)}` : sql`left(${sql.id(column)}, ${sql.lit(prefix)})`;
}

/**
 * The `create index` statement of an index. Planned indexes are created with it and the PostgreSQL
 * catalog rebuilds existing ones with it, so one planned and one existing index are the same
 * exactly when their compiled statements are equal.
 */
export function indexStatement(db: Kysely<unknown>, index: IndexShape) {
  const create = db.schema.createIndex(index.name).on(index.table);
  const first = new Set(index.nullsFirst);
  const plain = first.size === 0 && index.columns.every((column) => !Object.hasOwn(index.prefixes, column));
  const key = (column: string) => {
    const indexed = prefixedColumn(column, Object.hasOwn(index.prefixes, column) ? index.prefixes[column] : undefined);
    return first.has(column) ? sql`${indexed} nulls first` : indexed;
  };
  const withColumns = plain ? create.columns([...index.columns]) : create.expression(sql.join(index.columns.map(key)));
  return index.unique ? withColumns.unique() : withColumns;
}
