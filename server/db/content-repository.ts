import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { QuireDatabase } from './schema.js';
import { containsIgnoringCase } from './sqlite-dialect.js';

/** A stored content row: column name to SQL value. */
export type StoredRow = Record<string, unknown>;

/** `column = value` */
export interface EqualsCondition {
  column: string;
  value: unknown;
}

/** What the list query selects; every column name has been checked against the registry. */
export interface RowSelection {
  equals: readonly EqualsCondition[];
  /** Case-insensitive substring search over these columns; every keyword must match. */
  search?: { columns: readonly string[]; keywords: readonly string[] };
}

/** Paging and order of a list query. */
export interface RowPage {
  order: string;
  desc: boolean;
  limit: number;
  offset: number;
}

/**
 * All SQL over content tables. Table and column names reaching this class have been checked
 * against the content-type registry by the caller; values are always bound parameters.
 */
export class ContentRepository {
  // Content tables are created at run time, so Kysely sees them untyped.
  private readonly db: Kysely<Record<string, StoredRow>>;

  constructor(db: Kysely<QuireDatabase>) {
    this.db = db as unknown as Kysely<Record<string, StoredRow>>;
  }

  /** Rows matching a selection, in the requested order, ties broken by id. */
  async list(table: string, selection: RowSelection, page: RowPage): Promise<StoredRow[]> {
    const direction = page.desc ? 'desc' : 'asc';
    let query = this.db.selectFrom(table).selectAll();
    const where = this.whereOf(selection);
    if (where) query = query.where(where);
    query = query.orderBy(sql.ref(page.order), direction);
    if (page.order !== 'id') query = query.orderBy(sql.ref('id'), direction);
    return query.limit(page.limit).offset(page.offset).execute();
  }

  /** Number of rows matching a selection (all rows when the selection is empty). */
  async count(table: string, selection: RowSelection): Promise<number> {
    let query = this.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    const where = this.whereOf(selection);
    if (where) query = query.where(where);
    const result = await query.executeTakeFirstOrThrow();
    return Number(result.n);
  }

  /** One row by id. */
  async findById(table: string, id: string): Promise<StoredRow | undefined> {
    return this.db.selectFrom(table).selectAll().where(sql.ref('id'), '=', id).executeTakeFirst();
  }

  /** Whether `value` is used in `column` by a row other than `exceptId`. */
  async isTaken(table: string, column: string, value: unknown, exceptId?: string): Promise<boolean> {
    let query = this.db.selectFrom(table).select(sql<number>`1`.as('found')).where(sql.ref(column), '=', value);
    if (exceptId !== undefined) query = query.where(sql.ref('id'), '!=', exceptId);
    return (await query.limit(1).executeTakeFirst()) !== undefined;
  }

  /** Values of `column` that start with `prefix` (to pick a free slug suffix in one query). */
  async valuesStartingWith(table: string, column: string, prefix: string, exceptId?: string): Promise<Set<string>> {
    let query = this.db
      .selectFrom(table)
      .select(sql.ref<string>(column).as('value'))
      .where(sql<SqlBool>`substr(${sql.ref(column)}, 1, ${prefix.length}) = ${prefix}`);
    if (exceptId !== undefined) query = query.where(sql.ref('id'), '!=', exceptId);
    const rows = await query.execute();
    return new Set(rows.map((row) => String(row.value)));
  }

  /** Inserts a row. */
  async insert(table: string, row: StoredRow): Promise<void> {
    await this.db.insertInto(table).values(row).execute();
  }

  /** Updates columns of one row; returns whether it existed. */
  async update(table: string, id: string, changes: StoredRow): Promise<boolean> {
    const result = await this.db.updateTable(table).set(changes).where(sql.ref('id'), '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Deletes one row; returns how many rows went (0 or 1). */
  async delete(table: string, id: string): Promise<number> {
    const result = await this.db.deleteFrom(table).where(sql.ref('id'), '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private whereOf(selection: RowSelection): Expression<SqlBool> | undefined {
    const parts: Expression<SqlBool>[] = selection.equals.map(
      (condition) => sql<SqlBool>`${sql.ref(condition.column)} = ${condition.value}`,
    );
    for (const keyword of selection.search?.keywords ?? []) {
      parts.push(containsIgnoringCase(selection.search?.columns ?? [], keyword));
    }
    if (parts.length === 0) return undefined;
    return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
  }
}
