import {
  type Compilable,
  type CompiledQuery,
  type Expression,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { type DatabaseEngine, type MemorySearchRequest, sameColumns } from '../engine.js';
import { type CompiledWrites, compiledWritesOf } from '../queries/compiled-writes.js';
import { ContentCounts } from '../queries/content-counts.js';
import type { RowCounts, RowPage, RowSelection, StoredRow } from '../queries/content-rows.js';
import { conditionSql } from '../queries/filter-conditions.js';
import { sendLater } from '../queries/later-statements.js';
import { listOrdering, offsetPageIds } from '../queries/list-order.js';
import {
  addsColumns,
  ID_SLOT,
  MarkedGets,
  type MarkedRows,
  markColumns,
  type ReadMarks,
  type RowExtra,
  splitMarks,
  unmarked,
} from '../queries/read-marks.js';
import { readRowsAnywhere } from '../queries/shared-reads.js';
import {
  type SlugProbe,
  type SlugRun,
  slugProbeOf,
  slugProbeStatement,
  slugRunOf,
  slugRunStatement,
} from '../queries/slug-statements.js';
import type { QuireDatabase } from '../schema.js';
import type { StatementRunner } from '../statement-runner.js';
import { likeLiteral } from './asset-repository.js';

export type { RowCounts, RowPage, RowSelection, RowSelector, StoredRow } from '../queries/content-rows.js';

/**
 * All SQL over content tables. Table and column names reaching this class have been checked
 * against the content-type registry by the caller; values are always bound parameters.
 *
 * A long-lived reader (given a `StatementRunner`) compiles its queries with Kysely and runs them as
 * reused prepared statements, and searches through the table's search index when it has one that
 * covers the searched columns. A repository over a transaction runs everything through Kysely.
 * Search and JSON membership are written by the engine.
 */
/** What a `ContentRepository` reads and writes through. */
export interface ContentRepositoryOptions {
  /** The database, or a transaction in it. */
  db: Kysely<QuireDatabase>;
  engine: DatabaseEngine;
  /** Runs queries as reused prepared statements (a long-lived reader); without it, Kysely runs them. */
  runner?: StatementRunner;
}

export class ContentRepository {
  // Content tables are created at run time, so Kysely sees them untyped.
  private readonly db: Kysely<Record<string, StoredRow>>;
  /** Whether each table's search index covers its search columns (keyed by the columns array, which the registry rebuilds on reload). */
  private readonly searchIndexed = new WeakMap<readonly string[], Promise<boolean>>();
  private readonly markedGets = new MarkedGets();
  private readonly markedGetsOf = new WeakMap<readonly string[], MarkedGets>();
  /** A write's statements, compiled once per shape and dialect (compiled-writes.ts). */
  private readonly compiledWrites: CompiledWrites;
  private readonly tally: ContentCounts;

  private readonly engine: DatabaseEngine;
  private readonly runner: StatementRunner | undefined;

  constructor({ db, engine, runner }: ContentRepositoryOptions) {
    this.engine = engine;
    this.runner = runner;
    this.db = db as unknown as Kysely<Record<string, StoredRow>>;
    this.compiledWrites = compiledWritesOf(db as unknown as Kysely<unknown>);
    this.tally = new ContentCounts({
      db: this.db,
      engine,
      rows: {
        whereOf: (table, selection) => this.whereOf(table, selection),
        memorySearchOf: (table, selection) => this.memorySearchOf(table, selection),
        all: (query) => this.all(query),
      },
    });
  }

  /** Rows matching a selection, in the requested order, ties broken by id. */
  async list(table: string, selection: RowSelection, page: RowPage): Promise<StoredRow[]> {
    return (await this.listMarked(table, selection, page, [])).rows;
  }

  /**
   * `list`, with what its statement saw (see read-marks.ts) and each row's `extras`; `columns`:
   * the stored columns to read (null: all), where the in-memory search does not answer.
   */
  async listMarked(
    table: string,
    selection: RowSelection,
    page: RowPage,
    extras: readonly RowExtra[],
    columns: readonly string[] | null = null,
  ): Promise<MarkedRows<StoredRow>> {
    const ordered = listOrdering(this.engine, page);
    const marked = <Q extends SelectQueryBuilder<Record<string, StoredRow>, string, object>>(query: Q): Q =>
      addsColumns(this.engine, extras) ? (query.select(markColumns(this.engine, table, extras)) as Q) : query;
    const memory = this.memorySearchOf(table, selection);
    const found = memory && (await this.engine.searchIndex.memory?.list(memory, { ...page, ordered, marked }));
    if (found)
      return this.engine.searchIndex.memory?.readsMarks ? splitMarks(this.engine, found, extras) : unmarked(found);
    const where = await this.whereOf(table, selection);
    if (page.offset > 0 && !selection.search) {
      // Past an offset, the ids are found first and only the page's rows read: the skipped rows
      // stay in the index, where PostgreSQL's index scan would read each from the table (SQLite
      // answers both forms alike).
      const pageIds = offsetPageIds(this.engine, this.db, table, where, page);
      const rows = this.rowsOf(table, columns).where(this.engine.idAmong(pageIds));
      return splitMarks(this.engine, await this.all(ordered(marked(rows))), extras);
    }
    let query = this.rowsOf(table, columns);
    if (where) query = query.where(where);
    return splitMarks(
      this.engine,
      await this.all(ordered(marked(query)).limit(page.limit).offset(page.offset)),
      extras,
    );
  }

  /** Number of rows matching a selection (all rows when the selection is empty). */
  count(table: string, selection: RowSelection): Promise<number> {
    return this.tally.count(table, selection);
  }

  /** `total` and `filtered` of a list (see ContentCounts.counts). */
  counts(table: string, selection: RowSelection, marks: ReadMarks | null = null): Promise<RowCounts> {
    return this.tally.counts(table, selection, marks);
  }

  /** Rows matching a selection by the plain scan, never the search index (to check the index against). */
  async listByScan(table: string, selection: RowSelection): Promise<StoredRow[]> {
    let query = this.db.selectFrom(table).selectAll();
    const where = this.plainWhereOf(table, selection);
    if (where) query = query.where(where);
    return query.orderBy(sql.id('id')).execute();
  }

  /**
   * One row by id (none or one), with what its statement saw (see read-marks.ts) and its `extras`;
   * `columns`: the stored columns to read (null: all).
   */
  async findByIdMarked(
    table: string,
    id: string,
    extras: readonly RowExtra[],
    columns: readonly string[] | null = null,
  ): Promise<MarkedRows<StoredRow>> {
    if (!addsColumns(this.engine, extras)) {
      const [row] = await this.run(this.getStatement(table, null, columns)(id));
      return unmarked(row ? [row] : []);
    }
    return splitMarks(this.engine, await this.run(this.getStatement(table, extras, columns)(id)), extras);
  }

  /** One row by id. */
  async findById(table: string, id: string): Promise<StoredRow | undefined> {
    const [row] = await this.run(this.getStatement(table, null, null)(id));
    return row;
  }

  /**
   * A get's statement, compiled once per table, extras and columns: its row (`columns` of it, null:
   * all) with `extras` and the engine's marks, or (null extras) its row alone.
   */
  private getStatement(
    table: string,
    extras: readonly RowExtra[] | null,
    columns: readonly string[] | null,
  ): (id: string) => CompiledQuery {
    const gets = columns ? this.columnGets(columns) : this.markedGets;
    const statement = gets.get(table, extras);
    if (statement) return statement;
    let query = this.rowsOf(table, columns);
    if (extras) query = query.select(markColumns(this.engine, table, extras));
    return gets.set(table, extras, query.where(sql.id('id'), '=', ID_SLOT).compile());
  }

  /** The statements of gets reading only `columns` (kept by the array, which a read plan keeps). */
  private columnGets(columns: readonly string[]): MarkedGets {
    let gets = this.markedGetsOf.get(columns);
    if (!gets) {
      gets = new MarkedGets();
      this.markedGetsOf.set(columns, gets);
    }
    return gets;
  }

  /** A read of `table`'s rows: `columns` of them, or (null) every column. */
  private rowsOf(table: string, columns: readonly string[] | null) {
    const rows = this.db.selectFrom(table);
    return columns ? rows.select(columns as string[]) : rows.selectAll();
  }

  /** The rows with these ids (in no particular order; missing ids are left out). */
  async findByIds(table: string, ids: readonly string[]): Promise<StoredRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom(table).selectAll().where(sql.id('id'), 'in', ids).execute();
  }

  /** Up to `limit` rows whose `column` holds `id` (rows pointing at a row through a relation). */
  async findReferencing(table: string, column: string, id: string, limit: number): Promise<StoredRow[]> {
    return this.db
      .selectFrom(table)
      .selectAll()
      .where(sql.id(column), '=', id)
      .orderBy(sql.id('id'))
      .limit(limit)
      .execute();
  }

  /**
   * Up to `limit` rows whose `column`, read as text, contains `text` (the rows a JSON value may
   * point at a row through): candidates the caller checks one by one.
   */
  async findMentioning(table: string, column: string, text: string, limit: number): Promise<StoredRow[]> {
    const pattern = `%${likeLiteral(text)}%`;
    return this.db
      .selectFrom(table)
      .selectAll()
      .where(sql<boolean>`cast(${sql.id(column)} as text) like ${pattern} escape '\\'`)
      .orderBy(sql.id('id'))
      .limit(limit)
      .execute();
  }

  /** How many rows of `table` point at `id` through `column`. */
  async countReferencing(table: string, column: string, id: string): Promise<number> {
    const found = await this.db
      .selectFrom(table)
      .select(sql<number | string>`count(*)`.as('n'))
      .where(sql.id(column), '=', id)
      .executeTakeFirst();
    // PostgreSQL's count is a bigint, which node-postgres reads as a string.
    return Number(found?.n ?? 0);
  }

  /** Whether `value` is used in `column` by a row other than `exceptId`. */
  async isTaken(table: string, column: string, value: unknown, exceptId?: string): Promise<boolean> {
    let query = this.db.selectFrom(table).select(sql<number>`1`.as('found')).where(sql.id(column), '=', value);
    if (exceptId !== undefined) query = query.where(sql.id('id'), '!=', exceptId);
    return (await this.all(query.limit(1))).length > 0;
  }

  /**
   * Values of `column` that start with `prefix` (to pick a free slug suffix in one query), and with
   * `withToken` the table's gap token read in the same statement (`keepsGapTokens`; else null).
   */
  async valuesStartingWith(
    table: string,
    column: string,
    prefix: string,
    exceptId?: string,
    withToken = false,
  ): Promise<SlugRun> {
    const counter = withToken ? this.engine.rowChanges : undefined;
    const at = { table, column, prefix, exceptId };
    return slugRunOf(await this.run(slugRunStatement(this.db, this.compiledWrites, counter, at)), !!counter);
  }

  /** Whether the engine keeps gap tokens (`probeSlugs`, `valuesStartingWith`). */
  get keepsGapTokens(): boolean {
    return this.engine.rowChanges !== undefined;
  }

  /**
   * The first of `candidates` no row but `exceptId` holds in `column`, with the table's gap token
   * read in the same statement (only where the engine keeps them: `keepsGapTokens`).
   */
  async probeSlugs(table: string, column: string, candidates: string[], exceptId: string): Promise<SlugProbe> {
    const counter = this.engine.rowChanges;
    if (!counter) throw new Error('probeSlugs: this engine keeps no gap tokens');
    const at = { table, column, candidates, exceptId };
    const [row] = await this.run(slugProbeStatement(this.db, this.compiledWrites, counter, at));
    return slugProbeOf(row);
  }

  /** Inserts a row. */
  async insert(table: string, row: StoredRow): Promise<void> {
    const { columns, values, given } = written(row);
    const query = this.compiledWrites.statement(`insert\u0000${table}\u0000${columns}`, values, () =>
      this.db.insertInto(table).values(given),
    );
    // Its count is not read: a conflict fails the write where it is next awaited (later-statements.ts).
    await this.write(query, true);
    await this.rowsChanged(table, true);
  }

  /** Updates columns of one row; returns whether it existed. */
  async update(table: string, id: string, changes: StoredRow): Promise<boolean> {
    const { columns, values, given } = written(changes);
    const query = this.compiledWrites.statement(`update\u0000${table}\u0000${columns}`, [...values, id], () =>
      this.db.updateTable(table).set(given).where(sql.id('id'), '=', id),
    );
    if (this.engine.locksRowsForWrites) {
      await this.writeLocked(table, query);
      return true;
    }
    const updated = (await this.write(query)) === 1;
    if (updated) await this.rowsChanged(table, false);
    return updated;
  }

  /** Deletes one row; returns how many rows went (0 or 1). */
  async delete(table: string, id: string): Promise<number> {
    const query = this.db.deleteFrom(table).where(sql.id('id'), '=', id);
    if (this.engine.locksRowsForWrites) {
      await this.writeLocked(table, query);
      return 1;
    }
    const deleted = await this.write(query);
    if (deleted > 0) await this.rowsChanged(table, false);
    return deleted;
  }

  /**
   * A row read for a write, locked until the write ends where the engine locks rows
   * (`locksRowsForWrites`), so that `update` and `delete` of it are sure to find it.
   */
  async findForWrite(table: string, id: string): Promise<StoredRow | undefined> {
    if (!this.engine.locksRowsForWrites) return this.findById(table, id);
    const compiled = this.compiledWrites.statement(`lock\u0000${table}`, [id], () =>
      this.db.selectFrom(table).selectAll().where(sql.id('id'), '=', id).forUpdate(),
    );
    const [row] = await this.run(compiled);
    return row;
  }

  /**
   * The update or delete of a row `findForWrite` locked in this transaction, which is sure to find
   * it: its count is not waited for, and it goes with the next statement awaited (later-statements.ts).
   * A row the write did not lock first would be counted as written all the same.
   */
  private async writeLocked(table: string, query: Compilable<unknown> | CompiledQuery): Promise<void> {
    await this.write(query, true);
    await this.rowsChanged(table, false);
  }

  /**
   * Raises the table's change number in this write's transaction, where the engine keeps them (and
   * its gap token unless the write `onlyAdds`).
   */
  private async rowsChanged(table: string, onlyAdds: boolean): Promise<void> {
    await this.engine.rowChanges?.rowsChanged(this.db as unknown as Kysely<unknown>, table, onlyAdds);
  }

  /** Takes a row just written (every stored column) into the search index, in this transaction. */
  async rowWritten(table: string, columns: readonly string[], row: StoredRow): Promise<void> {
    if (columns.length === 0) return;
    await this.engine.searchIndex.rowWritten(this.db as unknown as Kysely<unknown>, table, columns, row);
  }

  /** Moves rows written since the last flush into the table's search index (run in a transaction). */
  async flushSearchIndex(table: string, columns: readonly string[]): Promise<void> {
    if (!(await this.hasSearchIndex(table, columns))) return;
    await this.engine.searchIndex.flush(this.db as unknown as Kysely<unknown>, table, columns);
  }

  /**
   * A search the engine's in-memory index may answer, or null. Not inside a transaction without a
   * runner: its reads must see its own writes, which an index of committed rows lacks (SQLite's
   * index follows its connection's own writes, through the runner).
   */
  private memorySearchOf(table: string, selection: RowSelection): MemorySearchRequest | null {
    const search = selection.search;
    const memory = this.engine.searchIndex.memory;
    if (!memory || (!this.runner && this.db.isTransaction)) return null;
    const db = this.db as unknown as Kysely<unknown>;
    if (!search || search.scanned) {
      // Every list and get counts its table: the first one starts the index's build.
      memory.warm(db, this.runner, table);
      return null;
    }
    const { columns, keywords } = search;
    const { equals: conditions } = selection;
    return { db, runner: this.runner, table, columns, keywords, equals: this.equalsOf(selection), conditions };
  }

  /** The WHERE of a selection: search keywords the index can answer go to the index. */
  private async whereOf(table: string, selection: RowSelection): Promise<Expression<SqlBool> | undefined> {
    const search = selection.search;
    const searchIndex = this.engine.searchIndex.sql;
    if (
      !this.runner ||
      !search ||
      search.scanned ||
      !searchIndex ||
      !(await this.hasSearchIndex(table, search.columns))
    ) {
      return this.plainWhereOf(table, selection);
    }
    const indexed = search.keywords.filter((keyword) => searchIndex.canAnswer(keyword));
    const scanned = search.keywords.filter((keyword) => !searchIndex.canAnswer(keyword));
    const parts = this.equalsOf(selection);
    if (indexed.length > 0) parts.push(searchIndex.matches(table, search.columns, indexed));
    for (const keyword of scanned) parts.push(this.engine.containsIgnoringCase(table, search.columns, keyword));
    return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
  }

  /** The WHERE of a selection with every keyword checked row by row. */
  private plainWhereOf(table: string, selection: RowSelection): Expression<SqlBool> | undefined {
    const parts = this.equalsOf(selection);
    for (const keyword of selection.search?.keywords ?? []) {
      parts.push(this.engine.containsIgnoringCase(table, selection.search?.columns ?? [], keyword));
    }
    if (parts.length === 0) return undefined;
    return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
  }

  private equalsOf(selection: RowSelection): Expression<SqlBool>[] {
    return selection.equals.map((condition) => conditionSql(this.db, this.engine, condition));
  }

  private hasSearchIndex(table: string, columns: readonly string[]): Promise<boolean> {
    let known = this.searchIndexed.get(columns);
    if (!known) {
      known = this.engine.searchIndex
        .indexedColumns(this.db as unknown as Kysely<unknown>, table)
        .then((indexed) => indexed !== null && sameColumns(indexed, columns));
      this.searchIndexed.set(columns, known);
    }
    return known;
  }

  /** Runs a write; how many rows it changed. */
  private async write(query: Compilable<unknown> | CompiledQuery, later = false): Promise<number> {
    const compiled = 'compile' in query ? query.compile() : query;
    if (this.runner) return this.runner.run(compiled.sql, compiled.parameters);
    const result = await this.db.executeQuery(later ? sendLater(compiled) : compiled);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * Runs a read: as a reused prepared statement when this repository has a runner (SQLite), else
   * on a connection shared with the other reads in flight when outside a transaction (PostgreSQL).
   */
  private async all(query: Compilable<StoredRow>): Promise<StoredRow[]> {
    return this.run(query.compile());
  }

  /** Runs a compiled read (see `all`). */
  private async run(compiled: CompiledQuery): Promise<StoredRow[]> {
    if (!this.runner) return readRowsAnywhere<StoredRow>(this.db, compiled);
    return this.runner.all(compiled.sql, compiled.parameters) as Promise<StoredRow[]>;
  }
}

/**
 * What a write gives a value (Kysely leaves out columns set to undefined): the columns, joined as
 * its statement's shape, their values in that order, and the row without the others.
 */
function written(row: StoredRow): { columns: string; values: unknown[]; given: StoredRow } {
  const given = Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined));
  return { columns: Object.keys(given).join('\u0000'), values: Object.values(given), given };
}
