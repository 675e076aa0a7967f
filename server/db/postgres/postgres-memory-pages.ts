import { type Compilable, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Numbered } from '../../search/search-answers.js';
import type { MemorySearchPage, MemorySearchRequest } from '../../search/search-engine.js';
import type { PostingBitmap } from '../../search/search-posting-bitmap.js';
import { searchTextName } from '../queries/internal-names.js';
import { readRowsAnywhere } from '../queries/shared-reads.js';
import type { IdSequence } from './postgres-id-sequence.js';
import { changeNumber } from './postgres-row-changes.js';
import { foldedTextContains, ROW_NUMBER } from './postgres-search-index.js';

/**
 * Pages and counts of PostgreSQL's in-memory search matches (postgres-memory-search.ts): the
 * matches are a bitmap of search-table row numbers; the selection's other conditions are met in
 * memory when they are on select columns, else by SQL, which orders the matches and reads the
 * page's rows. Every answer's last statement reads the table's change
 * number too, so the caller can tell whether a write committed while it was put together.
 */

/** Largest set of matches passed to SQL as an array of row numbers. */
const MAX_LISTED_ROWS = 50_000;
/** Rows walked in the first step of an order when the matches are dense (see `walk`). */
const MIN_WALK = 512;
/** Most rows walked in one step. */
const MAX_WALK_STEP = 65536;

/** The names the change number and a row's number are read under, beside a page's columns. */
const NUMBER = 'quire:number';
const ROW = 'quire:n';

type Row = Record<string, unknown>;

/** The request's Kysely over tables known only at run time. */
const untyped = (request: MemorySearchRequest) => request.db as Kysely<Record<string, Record<string, unknown>>>;

/** A read's rows, on a connection shared with other reads when outside a transaction (shared-reads.ts). */
function readRows<R>(request: MemorySearchRequest, query: Compilable<R>): Promise<R[]> {
  return readRowsAnywhere<R>(untyped(request), query.compile());
}

/** The subquery of ids of the search table's rows numbered in `numbers`. */
function idsNumbered(table: string, numbers: readonly number[]) {
  return sql<SqlBool>`${sql.id('id')} in (select s.id from ${sql.id(searchTextName(table))} s
    where s.${sql.id(ROW_NUMBER)} = any(${numbers}::bigint[]))`;
}

/** A row's number in the search table, read beside the content table's row. */
function rowNumberOf(table: string) {
  return sql<string>`(select s.${sql.id(ROW_NUMBER)} from ${sql.id(searchTextName(table))} s
    where s.id = ${sql.id(table, 'id')})`;
}

const all = (conditions: readonly Expression<SqlBool>[]) => sql<SqlBool>`${sql.join(conditions, sql` and `)}`;

/** The numbers among `unsure` whose folded search text contains every keyword (checked by SQL). */
export async function unsureRowsMatching(
  request: MemorySearchRequest,
  columns: readonly string[],
  unsure: readonly number[],
): Promise<number[]> {
  const { rows } = await sql<{ n: string }>`select s.${sql.id(ROW_NUMBER)} as n
    from ${sql.id(searchTextName(request.table))} s
    where s.${sql.id(ROW_NUMBER)} = any(${unsure}::bigint[]) and ${foldedTextContains(columns, request.keywords)}`.execute(
    request.db,
  );
  return rows.map((row) => Number(row.n));
}

/**
 * Matches that also meet the request's other conditions. `met`: those matches, when the select
 * columns' values kept in memory decided the conditions (postgres-value-columns.ts), else null.
 */
export async function countWithConditions(
  request: MemorySearchRequest,
  hits: PostingBitmap,
  met: PostingBitmap | null,
  index: { rows: number; others(rows: PostingBitmap): PostingBitmap },
): Promise<Numbered<number>> {
  if (met) return { value: met.size, number: null };
  const { table } = request;
  const number = changeNumber(table).as('number');
  const misses = hits.size > index.rows / 2 ? index.others(hits) : null;
  if (misses && misses.size <= MAX_LISTED_ROWS) {
    // Most rows match: the rows meeting the conditions (counted through their index), less those
    // among the fewer non-matches that do.
    const missing = untyped(request)
      .selectFrom(table)
      .select(sql<string>`count(*)`.as('m'))
      .where(all([idsNumbered(table, misses.toArray()), ...request.equals]));
    const [row] = await readRows(
      request,
      untyped(request)
        .selectFrom(table)
        .select([sql<string>`count(*) - (${missing})`.as('n'), number])
        .where(all(request.equals)),
    );
    return { value: Number(row.n), number: String(row.number) };
  }
  if (hits.size <= MAX_LISTED_ROWS) {
    const [row] = await readRows(
      request,
      untyped(request)
        .selectFrom(table)
        .select([sql<string>`count(*)`.as('n'), number])
        .where(all([idsNumbered(table, hits.toArray()), ...request.equals])),
    );
    return { value: Number(row.n), number: String(row.number) };
  }
  // Many matches: the numbers of the rows the conditions select (through their index), counted here.
  const [row] = await readRows(
    request,
    untyped(request).selectNoFrom([
      sql<number[]>`(select coalesce(json_agg(${rowNumberOf(table)}), '[]'::json) from ${sql.id(table)}
        where ${all(request.equals)})`.as('numbers'),
      number,
    ]),
  );
  let n = 0;
  for (const rowNumber of row.numbers as number[]) if (rowNumber !== null && hits.has(rowNumber)) n++;
  return { value: n, number: String(row.number) };
}

/**
 * The page of `hits` (the search's matches) that meet the request's other conditions (`met`, when
 * decided in memory: see `countWithConditions`), in the page's order (nulls first ascending, last descending, ties by id: the lists' order).
 */
export async function pageOfMatches(
  request: MemorySearchRequest,
  hits: PostingBitmap,
  met: PostingBitmap | null,
  held: { index: { rows: number }; sequence: IdSequence },
  page: MemorySearchPage,
): Promise<Numbered<Row[]>> {
  if (hits.size === 0) return { value: [], number: null };
  const { sequence } = held;
  if (page.order === 'id' && met && sequence.holds) {
    // In id order with no other condition than on select columns: the page's row numbers are
    // found in memory.
    return rowsNumbered(request, sequence.page(met, page.offset, page.limit, page.desc), page);
  }
  const rows = held.index.rows;
  const walkCost = ((page.offset + page.limit) * Math.max(rows, 1)) / hits.size;
  if (walkCost < hits.size || hits.size > MAX_LISTED_ROWS) return walk(request, hits, page, walkCost);
  const query = rowsWhere(request, page, all([idsNumbered(request.table, hits.toArray()), ...request.equals]));
  const found = await readRows(request, ordered(query, page).limit(page.limit).offset(page.offset));
  return numbered(request, found, found);
}

/** `query` in the page's order: the repository's lists' own (nulls, text prefix, ties by id). */
function ordered<Q extends SelectQueryBuilder<Record<string, Row>, string, object>>(
  query: Q,
  page: MemorySearchPage,
): Q {
  if (page.ordered) return page.ordered(query);
  // Without the repository's ordering: nulls first ascending, last descending, ties by id.
  const direction = page.desc ? 'desc' : 'asc';
  if (page.order === 'id') return query.orderBy(sql.id('id'), direction) as Q;
  const nulls = page.desc ? sql`desc nulls last` : sql`asc nulls first`;
  return query.orderBy(sql`${sql.id(page.order)} ${nulls}`).orderBy(sql.id('id'), direction) as Q;
}

/** `query` with the list's read marks, when it asked for them. */
function marked<Q extends SelectQueryBuilder<Record<string, Row>, string, object>>(
  query: Q,
  page: MemorySearchPage,
): Q {
  return page.marked ? page.marked(query) : query;
}

/**
 * The rows meeting `where`, each with the change number its statement read (and, `withRow`, its row
 * number in the search table), marked as the page asks.
 */
function rowsWhere(request: MemorySearchRequest, page: MemorySearchPage, where: Expression<SqlBool>, withRow = false) {
  const { table } = request;
  const extra = withRow ? [rowNumberOf(table).as(ROW)] : [];
  return marked(
    untyped(request)
      .selectFrom(table)
      .selectAll()
      .select([changeNumber(table).as(NUMBER), ...extra])
      .where(where),
    page,
  );
}

/** The rows and the change number their statement read (rows returned without it). */
async function numbered(
  request: MemorySearchRequest,
  read: readonly Row[],
  rows: readonly Row[],
): Promise<Numbered<Row[]>> {
  if (read.length === 0) return { value: [], number: await numberNow(request) };
  const number = String(read[0][NUMBER]);
  return {
    number,
    value: rows.map((row) => {
      const { [NUMBER]: _, ...stored } = row;
      return stored;
    }),
  };
}

/**
 * The page of dense matches in the requested order: walks the rows meeting the other conditions
 * in that order (the list indexes serve it) a step at a time, keeping those the search matched,
 * then reads the page's rows. Steps start at the expected length and double.
 */
async function walk(
  request: MemorySearchRequest,
  hits: PostingBitmap,
  page: MemorySearchPage,
  expected: number,
): Promise<Numbered<Row[]>> {
  const { table } = request;
  const wanted = page.offset + page.limit;
  let base = untyped(request)
    .selectFrom(table)
    .select([sql.id('id').as('id'), rowNumberOf(table).as('n')]);
  if (request.equals.length > 0) base = base.where(all(request.equals));
  const found: string[] = [];
  let step = Math.min(MAX_WALK_STEP, Math.max(MIN_WALK, Math.ceil(expected * 1.2)));
  for (let scanned = 0; found.length < wanted; ) {
    const rows = await readRows(request, ordered(base, page).limit(step).offset(scanned));
    for (const row of rows) {
      if (row.n !== null && hits.has(Number(row.n)) && found.push(String(row.id)) === wanted) break;
    }
    if (rows.length < step) break;
    scanned += rows.length;
    step = Math.min(step * 2, MAX_WALK_STEP);
  }
  const ids = found.slice(page.offset);
  if (ids.length === 0) return { value: [], number: await numberNow(request) };
  const read = await readRows(request, rowsWhere(request, page, sql<SqlBool>`${sql.id('id')} = any(${ids}::text[])`));
  const byId = new Map(read.map((row) => [String(row.id), row]));
  return numbered(
    request,
    read,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

/** The rows numbered `numbers` in the search table, in that order. */
async function rowsNumbered(
  request: MemorySearchRequest,
  numbers: readonly number[],
  page: MemorySearchPage,
): Promise<Numbered<Row[]>> {
  if (numbers.length === 0) return { value: [], number: await numberNow(request) };
  const read = await readRows(request, rowsWhere(request, page, idsNumbered(request.table, numbers), true));
  const byNumber = new Map(read.map((row) => [Number(row[ROW]), row]));
  const rows = numbers.flatMap((n) => byNumber.get(n) ?? []).map(({ [ROW]: _, ...row }) => row);
  return numbered(request, read, rows);
}

/** The table's change number now. */
export async function numberNow(request: MemorySearchRequest): Promise<string> {
  const [row] = await readRows(request, untyped(request).selectNoFrom(changeNumber(request.table).as('number')));
  return String(row.number);
}
