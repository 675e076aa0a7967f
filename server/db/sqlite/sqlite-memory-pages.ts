import type { Kysely, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { MemorySearchPage, MemorySearchQuery, MemorySearchRequest } from '../../search/search-engine.js';
import { foldForSearch } from '../../search/search-folding.js';
import type { IdOrder } from '../../search/search-id-order.js';
import type { MemorySearchIndex } from '../../search/search-memory-index.js';
import type { PostingBitmap } from '../../search/search-posting-bitmap.js';

/**
 * Pages and counts of the in-memory search's matches on SQLite (see sqlite-memory-search.ts): the
 * matches are a bitmap of rowids; SQL orders them, applies the selection's other conditions and
 * reads the page's rows. SQL also checks the rows the index is unsure of.
 */

/** Largest set of candidate rows passed to SQL as a list (JSON array of rowids). */
const MAX_LISTED_ROWS = 50_000;
/** Rows walked in the first step of an order's index when the matches are dense (see `walk`). */
const MIN_WALK = 512;
/** Most rows walked in one step. */
const MAX_WALK_STEP = 65536;

/** The query's Kysely over tables known only at run time. */
const untyped = (query: MemorySearchRequest) => query.db as Kysely<Record<string, Record<string, unknown>>>;

/** An identifier quoted for SQLite. */
export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Select-list items that read, for a row aliased `row` of `table`, the ids of the rows before and
 * after it by rowid (as "quire:before" and "quire:after"), for `IdOrder.check`.
 */
export function neighbours(quotedTable: string): string {
  return `(select "id" from ${quotedTable} where rowid < row.rowid order by rowid desc limit 1) as "quire:before",
    (select "id" from ${quotedTable} where rowid > row.rowid order by rowid limit 1) as "quire:after"`;
}

/** The rows of `unsure` whose search columns contain every keyword of the query, checked by SQL. */
export async function unsureRowsMatching(query: MemorySearchQuery, unsure: readonly number[]): Promise<number[]> {
  const checks = query.keywords.map((keyword) => containsFolded(query.columns, keyword));
  const compiled = untyped(query)
    .selectFrom(query.table)
    .select(sql<number>`rowid`.as('r'))
    .where(sql<SqlBool>`rowid in (select value from json_each(${JSON.stringify(unsure)}))`)
    .where(sql<SqlBool>`${sql.join(checks, sql` and `)}`)
    .compile();
  return (await query.runner.all(compiled.sql, compiled.parameters)).map((row) => Number(row.r));
}

/**
 * The plain scan's test (`instr(quire_fold(column), keyword) > 0` in any column), calling the
 * JavaScript folding only for values that are not ASCII: there SQLite's `lower()` folds the same
 * (and NFC changes nothing), without a call into JavaScript per value. Text whose length in
 * characters equals its length in bytes is ASCII.
 */
function containsFolded(columns: readonly string[], keyword: string) {
  const needle = foldForSearch(keyword);
  const tests = columns.map((column) => {
    const value = sql.id(column);
    return sql<SqlBool>`instr(case when typeof(${value}) = 'text' and length(${value}) = length(cast(${value} as blob))
      then lower(${value}) else quire_fold(${value}) end, ${needle}) > 0`;
  });
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

/** `rowid in (the listed rows)` plus the query's other conditions. */
function listedWhere(query: MemorySearchQuery, rowids: PostingBitmap) {
  return sql<SqlBool>`${sql.join(
    [sql<SqlBool>`rowid in (select value from json_each(${JSON.stringify(rowids.toArray())}))`, ...query.equals],
    sql` and `,
  )}`;
}

/** Matches that also meet the query's other conditions. */
export async function countWithConditions(
  query: MemorySearchQuery,
  index: MemorySearchIndex,
  hits: PostingBitmap,
): Promise<number> {
  const others = sql<SqlBool>`${sql.join(query.equals, sql` and `)}`;
  if (hits.size <= MAX_LISTED_ROWS) {
    const compiled = untyped(query)
      .selectFrom(query.table)
      .select(sql<number>`count(*)`.as('n'))
      .where(listedWhere(query, hits))
      .compile();
    const [row] = await query.runner.all(compiled.sql, compiled.parameters);
    return Number(row.n);
  }
  const misses = index.others(hits);
  if (misses.size <= MAX_LISTED_ROWS) {
    // Most rows match: the rows meeting the conditions, less those among the few that do not.
    const missing = untyped(query)
      .selectFrom(query.table)
      .select(sql<number>`count(*)`.as('m'))
      .where(listedWhere(query, misses));
    const compiled = untyped(query)
      .selectFrom(query.table)
      .select(sql<number>`count(*) - (${missing})`.as('n'))
      .where(others)
      .compile();
    const [row] = await query.runner.all(compiled.sql, compiled.parameters);
    return Number(row.n);
  }
  // Many either way: the rowids the conditions select (through their index), counted in here.
  const compiled = untyped(query).selectFrom(query.table).select(sql<number>`rowid`.as('r')).where(others).compile();
  let n = 0;
  for (const row of await query.runner.all(compiled.sql, compiled.parameters)) if (hits.has(Number(row.r))) n++;
  return n;
}

/**
 * The page of `hits` (the search's matches) that meet the query's other conditions, in the page's
 * order. `index` is the index the matches came from, `idOrder` its table's (search-id-order.ts).
 */
export async function pageOfMatches(
  query: MemorySearchQuery,
  hits: PostingBitmap,
  index: MemorySearchIndex,
  idOrder: IdOrder,
  page: MemorySearchPage,
): Promise<Record<string, unknown>[]> {
  if (hits.size === 0) return [];
  // In id order with no other condition, while rowid order is id order: a slice of the matches.
  if (page.order === 'id' && query.equals.length === 0 && idOrder.holds) {
    return rowsInOrder(query, hits.range(page.offset, page.limit, page.desc));
  }
  // Dense matches: walk the order's index, keeping matches, rather than list them all to SQL.
  const walkCost = ((page.offset + page.limit) * Math.max(index.rows, 1)) / hits.size;
  if (walkCost < hits.size || hits.size > MAX_LISTED_ROWS) return walk(query, hits, page, walkCost);
  const direction = page.desc ? 'desc' : 'asc';
  let ordered = untyped(query)
    .selectFrom(query.table)
    .select(sql<number>`rowid`.as('r'))
    .where(listedWhere(query, hits));
  ordered = ordered.orderBy(sql.id(page.order), direction);
  if (page.order !== 'id') ordered = ordered.orderBy(sql.id('id'), direction);
  const compiled = ordered.limit(page.limit).offset(page.offset).compile();
  const rowids = (await query.runner.all(compiled.sql, compiled.parameters)).map((row) => Number(row.r));
  return rowsInOrder(query, rowids);
}

/**
 * The page of matches in the requested order, walking the rows meeting the other conditions in
 * that order (an index per orderable column, ending with id, serves it) a step at a time and
 * keeping those the search matched. Steps start at the expected length and double.
 */
async function walk(
  query: MemorySearchQuery,
  hits: PostingBitmap,
  page: MemorySearchPage,
  expected: number,
): Promise<Record<string, unknown>[]> {
  const wanted = page.offset + page.limit;
  const direction = page.desc ? 'desc' : 'asc';
  let base = untyped(query).selectFrom(query.table).select(sql<number>`rowid`.as('r'));
  if (query.equals.length > 0) base = base.where(sql<SqlBool>`${sql.join(query.equals, sql` and `)}`);
  base = base.orderBy(sql.id(page.order), direction);
  if (page.order !== 'id') base = base.orderBy(sql.id('id'), direction);
  const found: number[] = [];
  let step = Math.min(MAX_WALK_STEP, Math.max(MIN_WALK, Math.ceil(expected * 1.2)));
  for (let scanned = 0; found.length < wanted; ) {
    const compiled = base.limit(step).offset(scanned).compile();
    const rows = await query.runner.all(compiled.sql, compiled.parameters);
    for (const row of rows) {
      const rowid = Number(row.r);
      if (hits.has(rowid) && found.push(rowid) === wanted) break;
    }
    if (rows.length < step) break;
    scanned += rows.length;
    step = Math.min(step * 2, MAX_WALK_STEP);
  }
  return rowsInOrder(query, found.slice(page.offset));
}

/** Full rows for rowids, in the order given. */
async function rowsInOrder(query: MemorySearchQuery, rowids: number[]): Promise<Record<string, unknown>[]> {
  if (rowids.length === 0) return [];
  const rows = await query.runner.all(
    `select rowid as "quire:rowid", * from ${quote(query.table)} where rowid in (select value from json_each(?))`,
    [JSON.stringify(rowids)],
  );
  const byRowid = new Map<number, Record<string, unknown>>();
  for (const row of rows) {
    const rowid = Number(row['quire:rowid']);
    const { 'quire:rowid': _, ...stored } = row;
    byRowid.set(rowid, stored);
  }
  const ordered: Record<string, unknown>[] = [];
  for (const rowid of rowids) {
    const row = byRowid.get(rowid);
    if (row) ordered.push(row);
  }
  return ordered;
}
