import { PostingBitmap } from '../../search/search-posting-bitmap.js';
import { SnapshotFormatError, type SnapshotReader, type SnapshotWriter } from '../../search/search-snapshot-codec.js';
import type { MemoryCondition } from '../engine.js';

/**
 * The values of a content table's select columns beside PostgreSQL's in-memory search index
 * (postgres-memory-search.ts), by row number, so that a search filtered by them (a status, say) is
 * counted and paged in memory. Handing the matches to SQL to meet the filter would look the rows
 * of the status up one by one in the search table for their numbers.
 *
 * Select values are text in a `collate "C"` column: two are equal in SQL exactly when they are
 * equal strings here. A column's values are coded (0 for no value) in an array by row number, its
 * width growing with the number of distinct values. Once a list's counts first ask (`tally`), the
 * rows of each code are tallied too, so a filter on one column is counted without visiting a row.
 */

/** One column's coded values. */
interface Column {
  name: string;
  codes: Uint8Array | Uint16Array | Uint32Array;
  /** Code of each value (codes from 1). */
  coded: Map<string, number>;
}

/** What a condition allows, as a test of a row's code. */
type CodeTest = (code: number) => boolean;

/**
 * The rows held and, per column, how many hold each code (index 0: no value), kept up to date by
 * `set` and `delete` once `tally` first needed them.
 */
interface Tallies {
  present: Uint8Array;
  live: number;
  perCode: number[][];
}

/** See the module comment. */
export class ValueColumns {
  private readonly columns: Column[];
  /** Filters decided here so far (for tests). */
  decided = 0;
  /** Counts answered by `tally` so far (for tests). */
  tallied = 0;
  private tallies: Tallies | null = null;

  constructor(readonly names: readonly string[]) {
    this.columns = names.map((name) => ({ name, codes: new Uint8Array(1024), coded: new Map() }));
  }

  /** The values of row `n`, in the order of `names` (anything but a string is no value). */
  set(n: number, values: readonly unknown[]): void {
    const tallies = this.tallies;
    if (tallies) this.untally(tallies, n);
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i];
      const value = values[i];
      let code = 0;
      let added = false;
      if (typeof value === 'string') {
        code = column.coded.get(value) ?? 0;
        if (code === 0) {
          code = column.coded.size + 1;
          column.coded.set(value, code);
          added = true;
        }
      }
      // Only a new value can need wider codes (a build sets every row: this runs a million times).
      if (n >= column.codes.length || (added && code > maxCode(column.codes))) {
        column.codes = grown(column.codes, n, code);
      }
      column.codes[n] = code;
    }
    if (tallies) this.addTally(tallies, n);
  }

  /** Row `n` was deleted. */
  delete(n: number): void {
    if (this.tallies) this.untally(this.tallies, n);
  }

  /** Counts row `n`, with its codes as they are, in the tallies. */
  private addTally(tallies: Tallies, n: number): void {
    if (n >= tallies.present.length) tallies.present = grown(tallies.present, n, 1) as Uint8Array;
    tallies.present[n] = 1;
    tallies.live++;
    for (let i = 0; i < this.columns.length; i++) {
      const { codes } = this.columns[i];
      const code = n < codes.length ? codes[n] : 0;
      tallies.perCode[i][code] = (tallies.perCode[i][code] ?? 0) + 1;
    }
  }

  /** Takes row `n`, if held, out of the tallies. */
  private untally(tallies: Tallies, n: number): void {
    if (n >= tallies.present.length || tallies.present[n] === 0) return;
    tallies.present[n] = 0;
    tallies.live--;
    for (let i = 0; i < this.columns.length; i++) {
      const { codes } = this.columns[i];
      tallies.perCode[i][n < codes.length ? codes[n] : 0]--;
    }
  }

  /**
   * How many rows there are and how many meet `conditions`, without visiting them: for no
   * condition, or one `eq`, `ne` or `in` on one of these columns (decided as `filter` does); null
   * otherwise. `held` gives every row held (the search index's) the first time: the tallies are
   * counted from it once, then follow `set` and `delete`.
   */
  tally(conditions: readonly MemoryCondition[], held: () => PostingBitmap): { total: number; filtered: number } | null {
    if (conditions.length > 1) return null;
    const [condition] = conditions;
    const at = condition ? this.columns.findIndex((column) => column.name === condition.column) : -1;
    const test = condition && at >= 0 ? codeTest(this.columns[at], condition) : null;
    if (condition && !test) return null;
    const tallies = this.tallies ?? this.startTallies(held());
    this.tallied++;
    if (!test) return { total: tallies.live, filtered: tallies.live };
    let filtered = 0;
    tallies.perCode[at].forEach((rows, code) => {
      if (test(code)) filtered += rows;
    });
    return { total: tallies.live, filtered };
  }

  private startTallies(held: PostingBitmap): Tallies {
    const tallies: Tallies = {
      present: new Uint8Array(1024),
      live: 0,
      perCode: this.columns.map(() => []),
    };
    held.forEach((n) => {
      this.addTally(tallies, n);
    });
    this.tallies = tallies;
    return tallies;
  }

  /**
   * Whether every condition is one on these columns that this decides exactly as SQL does
   * (filter-conditions.ts `conditionSql`).
   */
  decides(conditions: readonly MemoryCondition[]): boolean {
    return conditions.every((condition) => {
      const column = this.columns.find((candidate) => candidate.name === condition.column);
      return column !== undefined && codeTest(column, condition) !== null;
    });
  }

  /**
   * The rows of `rows` meeting every condition, or null when one is not a condition on these
   * columns that this can decide exactly as SQL does (`decides`).
   */
  filter(rows: PostingBitmap, conditions: readonly MemoryCondition[]): PostingBitmap | null {
    const tests: { codes: Column['codes']; test: CodeTest }[] = [];
    for (const condition of conditions) {
      const column = this.columns.find((candidate) => candidate.name === condition.column);
      const test = column ? codeTest(column, condition) : null;
      if (!column || !test) return null;
      tests.push({ codes: column.codes, test });
    }
    this.decided++;
    if (tests.length === 0) return rows;
    const kept = new PostingBitmap();
    rows.forEach((n) => {
      for (const { codes, test } of tests) if (!test(n < codes.length ? codes[n] : 0)) return;
      kept.add(n);
    });
    return kept;
  }

  /** Writes the columns for `ValueColumns.read` (search-snapshot-codec.ts). */
  write(out: SnapshotWriter): void {
    out.u32(this.columns.length);
    for (const column of this.columns) {
      out.string(column.name);
      out.u32(column.codes.BYTES_PER_ELEMENT);
      out.u32(column.codes.length);
      out.bytes(new Uint8Array(column.codes.buffer, column.codes.byteOffset, column.codes.byteLength));
      out.u32(column.coded.size);
      for (const value of column.coded.keys()) out.string(value);
    }
  }

  /** Columns as `write` wrote them (their codes are views of the reader's buffer until they grow). */
  static read(input: SnapshotReader): ValueColumns {
    const names: string[] = [];
    const read: Omit<Column, 'name'>[] = [];
    for (let count = input.u32(); count > 0; count--) {
      names.push(input.string());
      const width = input.u32();
      const length = input.u32();
      if (width !== 1 && width !== 2 && width !== 4) {
        throw new SnapshotFormatError('a value column has codes of no known width');
      }
      const { buffer, byteOffset } = input.bytes(length * width);
      const codes =
        width === 1
          ? new Uint8Array(buffer, byteOffset, length)
          : width === 2
            ? new Uint16Array(buffer, byteOffset, length)
            : new Uint32Array(buffer, byteOffset, length);
      const coded = new Map<string, number>();
      for (let size = input.u32(), code = 1; code <= size; code++) coded.set(input.string(), code);
      read.push({ codes, coded });
    }
    const columns = new ValueColumns(names);
    for (const [i, column] of read.entries()) Object.assign(columns.columns[i], column);
    return columns;
  }
}

/** The test of a row's code for `condition` on `column`, or null when it is not decided here. */
function codeTest(column: Column, condition: MemoryCondition): CodeTest | null {
  const { value, match, through } = condition;
  if (through !== undefined || (match !== undefined && match !== 'equals')) return null;
  const op = condition.op ?? 'eq';
  // A value the column never held has no code: no row equals it.
  const codeOf = (one: string) => column.coded.get(one) ?? -1;
  switch (op) {
    case 'eq':
      if (value === null) return (code) => code === 0;
      if (typeof value !== 'string') return null;
      return (
        (wanted) => (code: number) =>
          code === wanted
      )(codeOf(value));
    case 'ne':
      // A row without a value is not equal to the value either (as in SQL's `is null or <>`).
      if (value === null) return (code) => code !== 0;
      if (typeof value !== 'string') return null;
      return (
        (unwanted) => (code: number) =>
          code !== unwanted
      )(codeOf(value));
    case 'in': {
      if (!Array.isArray(value) || value.some((one) => typeof one !== 'string')) return null;
      const wanted = new Set(value.map((one: string) => codeOf(one)));
      return (code) => code !== 0 && wanted.has(code);
    }
    default:
      return null;
  }
}

function maxCode(codes: Column['codes']): number {
  return 2 ** (codes.BYTES_PER_ELEMENT * 8) - 1;
}

/** `codes` with room for row `n` and wide enough for `code`. */
function grown(codes: Column['codes'], n: number, code: number): Column['codes'] {
  const length = Math.max(codes.length, n < codes.length ? 0 : Math.max(n + 1, codes.length * 2));
  const width =
    code <= 0xff && codes.BYTES_PER_ELEMENT === 1 ? 1 : code <= 0xffff && codes.BYTES_PER_ELEMENT <= 2 ? 2 : 4;
  const next = width === 1 ? new Uint8Array(length) : width === 2 ? new Uint16Array(length) : new Uint32Array(length);
  next.set(codes);
  return next;
}
