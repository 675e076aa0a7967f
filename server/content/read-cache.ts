import type { RowSelection, StoredRow } from '../db/repositories/content-repository.js';

/** Page results kept per table (search pages only: they are the expensive ones). */
const MAX_PAGES_PER_TABLE = 256;
/** Count results kept per table. */
const MAX_COUNTS_PER_TABLE = 1024;

/** A change one committed write made to one row (`before` null for a create, `after` for a delete). */
export interface RowChange {
  before: StoredRow | null;
  after: StoredRow | null;
  /** A create whose id the caller named (a generated id is new, so only these can meet the trash's). */
  idChosen?: boolean;
  /** Of a type with localized columns: which locales' own values of which of them the change set (locale -> columns). */
  locales?: Record<string, string[]>;
}

/** A condition a row change can be checked against in JavaScript: `eq`/`ne` one text or null, `in` texts. */
type FollowedCondition =
  | readonly [column: string, op: 'eq' | 'ne', value: string | null]
  | readonly [column: string, op: 'in', values: readonly string[]];

interface CountEntry {
  count: number;
  /** The conditions, when the count can follow row changes; null means drop on change. */
  equals: readonly FollowedCondition[] | null;
}

interface TableEntries {
  counts: Map<string, CountEntry>;
  pages: Map<string, unknown>;
  /** Per slug base: the highest suffix n such that base, base-2 ... base-n are all taken. */
  slugs: Map<string, number>;
}

/** Most slug bases remembered per table. */
const MAX_SLUG_HINTS_PER_TABLE = 4096;

/**
 * Exact `total` and `filtered` counts (and search pages) without a COUNT per request.
 *
 * Results are kept per content type and selection. They stay exact because:
 * - every write through RowService brackets itself with `beginWrite` / `endWrite`; at the end,
 *   counts of plain equality selections follow the row change (+1/-1), everything else of that
 *   table is dropped;
 * - nothing is stored while a write is in flight or when a write started or ended during the
 *   computation (the epoch moved), so a value computed against an older state never lands;
 * - `sync()` (called at the start of every read) compares the database's external change token
 *   (SQLite's `data_version`): a commit by another process (an import, a restore) drops everything.
 */
export class ReadCache {
  /** Entries per content type (its registry object: a registry reload starts afresh). */
  private tables = new WeakMap<object, TableEntries>();
  private token: number;
  private epoch = 0;
  private writesInFlight = 0;
  /** Moves whenever rows may have been removed or renamed (a slug may have become free). */
  private gaps = 0;

  constructor(private readonly externalChangeToken: () => number) {
    this.token = externalChangeToken();
  }

  /** Drops everything if another connection committed since the last call. */
  sync(): void {
    const token = this.externalChangeToken();
    if (token !== this.token) {
      this.token = token;
      this.clear();
    }
  }

  /** Whether a write is running: reads must then wait their turn on the database connection. */
  get writing(): boolean {
    return this.writesInFlight > 0;
  }

  /** The number of rows matching `selection` in `table`, computed by `compute` on a miss. */
  async count(table: object, selection: RowSelection, compute: () => Promise<number>): Promise<number> {
    const key = selectionKey(selection);
    const hit = this.tables.get(table)?.counts.get(key);
    if (hit) return hit.count;
    const epoch = this.epoch;
    const count = await compute();
    if (this.canStore(epoch)) {
      const counts = this.entries(table).counts;
      if (counts.size >= MAX_COUNTS_PER_TABLE) counts.delete(counts.keys().next().value as string);
      counts.set(key, { count, equals: followableEquals(selection) });
    }
    return count;
  }

  /** A page of results for `key` in `table`, computed by `compute` on a miss. */
  async page<T>(table: object, key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.tables.get(table)?.pages.get(key);
    if (hit !== undefined) return hit as T;
    const epoch = this.epoch;
    const page = await compute();
    if (this.canStore(epoch)) {
      const pages = this.entries(table).pages;
      if (pages.size >= MAX_PAGES_PER_TABLE) pages.delete(pages.keys().next().value as string);
      pages.set(key, page);
    }
    return page;
  }

  /**
   * Marks the start of a write (call before the transaction begins). `onlyAdds` says it can only add
   * rows (a create), so slug hints stay true.
   */
  beginWrite(table: object, onlyAdds: boolean): void {
    this.sync();
    this.writesInFlight++;
    this.epoch++;
    if (!onlyAdds) this.forgetSlugs(table);
  }

  /**
   * Marks the end of a write: `changes` are the rows it committed, or null when it failed or its
   * effect is unknown (then the table's entries are dropped).
   */
  endWrite(table: object, onlyAdds: boolean, changes: readonly RowChange[] | null): void {
    this.writesInFlight--;
    this.epoch++;
    if (!onlyAdds) this.forgetSlugs(table);
    const entries = this.tables.get(table);
    if (!entries) return;
    entries.pages.clear();
    if (changes === null) {
      entries.counts.clear();
      return;
    }
    for (const [key, entry] of entries.counts) {
      const delta = entry.equals === null ? null : countDelta(entry.equals, changes);
      if (delta === null) entries.counts.delete(key);
      else entry.count += delta;
    }
  }

  /** Drops everything (after a change the cache cannot follow: schema changes, restores). */
  clear(): void {
    this.tables = new WeakMap();
    this.epoch++;
    this.gaps++;
  }

  /** A token to pass back to `rememberSlug`: it refuses hints learnt before a row could have gone. */
  get gapToken(): number {
    return this.gaps;
  }

  /** The highest n such that `base`, `base-2` ... `base-n` are known taken in `table.column`. */
  slugHint(table: object, column: string, base: string): number | undefined {
    return this.tables.get(table)?.slugs.get(`${column}\u0000${base}`);
  }

  /** Remembers a slug hint learnt by a committed create that began at `gapToken`. */
  rememberSlug(table: object, column: string, base: string, highest: number, gapToken: number): void {
    if (gapToken !== this.gaps) return;
    const slugs = this.entries(table).slugs;
    if (slugs.size >= MAX_SLUG_HINTS_PER_TABLE) slugs.delete(slugs.keys().next().value as string);
    const key = `${column}\u0000${base}`;
    // Concurrent creates may report out of order; the highest run is the truest.
    slugs.set(key, Math.max(highest, slugs.get(key) ?? 0));
  }

  private forgetSlugs(table: object): void {
    this.gaps++;
    this.tables.get(table)?.slugs.clear();
  }

  private canStore(epochAtStart: number): boolean {
    return this.writesInFlight === 0 && this.epoch === epochAtStart;
  }

  private entries(table: object): TableEntries {
    let entries = this.tables.get(table);
    if (!entries) {
      entries = { counts: new Map(), pages: new Map(), slugs: new Map() };
      this.tables.set(table, entries);
    }
    return entries;
  }
}

/** selectionKey of every row (no condition): asked on every read for `total`. */
const ALL_ROWS_KEY = '[[],null]';

/** A key naming a selection exactly (column order, operators and values included). */
export function selectionKey(selection: RowSelection): string {
  if (selection.equals.length === 0 && !selection.search) return ALL_ROWS_KEY;
  return JSON.stringify([
    selection.equals.map(({ column, op, value, through }) => [
      column,
      op ?? 'eq',
      value,
      through ? [through.table, through.column] : null,
    ]),
    selection.search ? [selection.search.columns, selection.search.keywords] : null,
  ]);
}

/**
 * The conditions of a selection a row change can be checked against, or null (search, non-text
 * values, order comparisons, relations through their target: SQL decides those, and such counts
 * are recomputed instead).
 */
function followableEquals(selection: RowSelection): CountEntry['equals'] {
  if (selection.search) return null;
  const equals: FollowedCondition[] = [];
  for (const { column, op = 'eq', value, match, through } of selection.equals) {
    // Membership in a JSON array is SQL's to decide.
    if (match === 'contains' || through) return null;
    if (op === 'in') {
      if (!Array.isArray(value) || !value.every((one) => typeof one === 'string')) return null;
      equals.push([column, op, value]);
    } else if (op === 'eq' || op === 'ne') {
      if (typeof value !== 'string' && value !== null) return null;
      equals.push([column, op, value]);
    } else return null;
  }
  return equals;
}

/**
 * How a count changes with committed row changes, or null when a stored value is not plain text
 * (then SQL's comparison rules, not `===`, would decide: the entry is dropped instead).
 * A null condition asks for rows where the column has no value (`is null`).
 */
function countDelta(equals: NonNullable<CountEntry['equals']>, changes: readonly RowChange[]): number | null {
  let delta = 0;
  for (const change of changes) {
    const before = matches(equals, change.before);
    const after = matches(equals, change.after);
    if (before === null || after === null) return null;
    delta += Number(after) - Number(before);
  }
  return delta;
}

function matches(equals: NonNullable<CountEntry['equals']>, row: StoredRow | null): boolean | null {
  if (row === null) return false;
  let all = true;
  for (const [column, op, value] of equals) {
    const stored = row[column];
    if (stored !== null && typeof stored !== 'string') return null;
    const equal =
      op === 'in' ? stored !== null && value.includes(stored) : value === null ? stored === null : stored === value;
    if (op === 'ne' ? equal : !equal) all = false;
  }
  return all;
}
