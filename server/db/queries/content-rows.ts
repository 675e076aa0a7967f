import type { Compilable, Expression, SqlBool } from 'kysely';
import type { MemorySearchRequest } from '../engine.js';
import type { FilterCondition } from './filter-conditions.js';

/** A stored content row: column name to SQL value. */
export type StoredRow = Record<string, unknown>;

/** What the list query selects; every column name has been checked against the registry. */
export interface RowSelection {
  /** The filters, all of which a row must pass (equality ones keep their columns' indexes). */
  equals: readonly FilterCondition[];
  /**
   * Case-insensitive substring search over these columns; every keyword must match. `scanned`:
   * the columns are not the ones the table's search index covers (a locale's own columns), so
   * the rows are checked one by one and the index is neither asked nor rebuilt for them.
   */
  search?: { columns: readonly string[]; keywords: readonly string[]; scanned?: boolean };
}

/** Paging and order of a list query. */
export interface RowPage {
  order: string;
  desc: boolean;
  limit: number;
  offset: number;
  /**
   * The order column is a `text` column: where the engine's indexes hold only its first characters
   * (`textIndexPrefix`), the list orders by those first, which an index serves, then by the value.
   */
  orderByText?: boolean;
}

/** A list's counts: all rows, and rows matching its selection. */
export interface RowCounts {
  total: number;
  filtered: number;
}

/** How a repository reads and selects rows, for its counts (content-counts.ts). */
export interface RowSelector {
  /** The WHERE of a selection (search keywords the index can answer go to the index). */
  whereOf(table: string, selection: RowSelection): Promise<Expression<SqlBool> | undefined>;
  /** A search the engine's in-memory index may answer, or null. */
  memorySearchOf(table: string, selection: RowSelection): MemorySearchRequest | null;
  /** Runs a read (a reused prepared statement, or a read shared with others in flight). */
  all(query: Compilable<StoredRow>): Promise<StoredRow[]>;
}
