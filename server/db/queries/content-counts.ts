import type { AliasableExpression, Expression, Kysely, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import type { RowCounts, RowSelection, RowSelector, StoredRow } from './content-rows.js';
import { KeptCounts } from './kept-counts.js';
import type { ReadMarks } from './read-marks.js';

/** What `ContentCounts` counts through. */
export interface ContentCountsOptions {
  db: Kysely<Record<string, StoredRow>>;
  engine: DatabaseEngine;
  /** The repository's own selection: its WHERE, in-memory search and statement runner. */
  rows: RowSelector;
}

/**
 * A repository's counts of content rows: by the in-memory search index where it answers, else by
 * SQL; on engines that keep change numbers (PostgreSQL), kept with the number their statement read
 * and given back while it is unchanged, and recounted once for the lists arriving together.
 */
export class ContentCounts {
  /** Counts kept with their table's change number, where the engine keeps those (see `counts`). */
  private readonly keptCounts = new KeptCounts();
  private readonly countsInFlight = new Map<string, Promise<RowCounts>>();

  private readonly db: Kysely<Record<string, StoredRow>>;
  private readonly engine: DatabaseEngine;
  private readonly rows: RowSelector;

  constructor(options: ContentCountsOptions) {
    this.db = options.db;
    this.engine = options.engine;
    this.rows = options.rows;
  }

  /** Number of rows matching a selection (all rows when the selection is empty). */
  async count(table: string, selection: RowSelection): Promise<number> {
    const memory = this.rows.memorySearchOf(table, selection);
    const counted = memory && (await this.engine.searchIndex.memory?.count(memory));
    if (typeof counted === 'number') return counted;
    let query = this.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    const where = await this.rows.whereOf(table, selection);
    if (where) query = query.where(where);
    const [result] = await this.rows.all(query);
    return Number(result.n);
  }

  /**
   * `total` and `filtered` of a list. Where the engine keeps change numbers (PostgreSQL), counts are
   * kept with the number read in their statement and given back while it is unchanged: one small
   * read instead of counting 1M rows again. Elsewhere (SQLite) the read cache keeps them.
   */
  async counts(table: string, selection: RowSelection, marks: ReadMarks | null = null): Promise<RowCounts> {
    const rowChanges = this.engine.rowChanges;
    const unfiltered = selection.equals.length === 0 && !selection.search;
    const memory = rowChanges && selection.search ? this.rows.memorySearchOf(table, selection) : null;
    if (memory) {
      // The index counts the search's matches, in step with every server's writes; kept with the
      // number the page read, as SQL's counts are (a search with other conditions reads the table).
      const seen = marks?.changes;
      const key = this.countKey(table, await this.rows.whereOf(table, selection));
      const kept = seen === undefined ? undefined : this.keptCounts.get(key, seen);
      const searched = kept ?? (await this.engine.searchIndex.memory?.count(memory, seen));
      if (typeof searched === 'number') {
        if (kept === undefined && seen !== undefined) this.keptCounts.set(key, seen, searched);
        const { total } = await this.counts(table, { equals: [] }, marks);
        return { total, filtered: searched };
      }
    }
    if (!rowChanges) {
      const total = await this.count(table, { equals: [] });
      return { total, filtered: unfiltered ? total : await this.count(table, selection) };
    }
    const number = rowChanges.changeNumber(table);
    const where = unfiltered ? undefined : await this.rows.whereOf(table, selection);
    const totalKey = this.countKey(table, undefined);
    const filteredKey = where ? this.countKey(table, where) : totalKey;
    // The number the page's own statement read, else one read now.
    const [now] = marks ? [{ number: marks.changes }] : await this.rows.all(this.db.selectNoFrom(number.as('number')));
    const total = this.keptCounts.get(totalKey, String(now.number));
    const filtered = this.keptCounts.get(filteredKey, String(now.number));
    if (total !== undefined && filtered !== undefined) return { total, filtered };
    const tallied = !selection.search && (await this.tallied(table, selection, String(now.number)));
    if (tallied) {
      this.keptCounts.set(totalKey, tallied.number, tallied.total);
      this.keptCounts.set(filteredKey, tallied.number, tallied.filtered);
      return { total: tallied.total, filtered: tallied.filtered };
    }
    // Lists arriving together after a write share one recount (its number is at least theirs).
    const flightKey = `${filteredKey}\u0001${now.number}`;
    let flight = this.countsInFlight.get(flightKey);
    if (!flight) {
      flight = this.countAgain(table, where, number, { totalKey, filteredKey, total }).finally(() =>
        this.countsInFlight.delete(flightKey),
      );
      this.countsInFlight.set(flightKey, flight);
    }
    return flight;
  }

  /**
   * Both counts from the tallies kept beside the table's in-memory index, where it has one and
   * they decide the selection (one condition on a select column, or none), as of `seen` or later.
   */
  private async tallied(table: string, selection: RowSelection, seen: string) {
    const memory = this.engine.searchIndex.memory;
    // Inside a transaction the index (in step with commits only) would miss its own writes.
    if (!memory?.tally || this.db.isTransaction) return null;
    return memory.tally(this.db as unknown as Kysely<unknown>, table, selection.equals, seen);
  }

  /** Counts what is not kept (both in one scan), keeping them with the number read alongside. */
  private async countAgain(
    table: string,
    where: Expression<SqlBool> | undefined,
    number: AliasableExpression<string>,
    known: { totalKey: string; filteredKey: string; total: number | undefined },
  ): Promise<RowCounts> {
    const { totalKey, filteredKey } = known;
    if (where && known.total === undefined) {
      const [read] = await this.rows.all(
        this.db
          .selectFrom(table)
          .select([
            sql<number>`count(*)`.as('total'),
            sql<number>`count(*) filter (where ${where})`.as('filtered'),
            number.as('number'),
          ]),
      );
      const counts = { total: Number(read.total), filtered: Number(read.filtered) };
      this.keptCounts.set(totalKey, String(read.number), counts.total);
      this.keptCounts.set(filteredKey, String(read.number), counts.filtered);
      return counts;
    }
    const countOf = async (key: string, condition: Expression<SqlBool> | undefined) => {
      let query = this.db.selectFrom(table).select([sql<number>`count(*)`.as('n'), number.as('number')]);
      if (condition) query = query.where(condition);
      const [read] = await this.rows.all(query);
      this.keptCounts.set(key, String(read.number), Number(read.n));
      return Number(read.n);
    };
    const total = known.total ?? (await countOf(totalKey, undefined));
    return { total, filtered: where ? await countOf(filteredKey, where) : total };
  }

  /** The key of a kept count: the table and its condition as SQL with its values. */
  private countKey(table: string, where: Expression<SqlBool> | undefined): string {
    if (!where) return table;
    const compiled = this.db.selectFrom(table).select(sql.lit(1).as('n')).where(where).compile();
    return `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  }
}
