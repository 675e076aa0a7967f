import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { sameColumns } from '../../search/search-engine.js';
import { foldForSearch } from '../../search/search-folding.js';
import { defaultColumnsAmong } from '../../search/search-index-tables.js';
import {
  searchChangedIndexName,
  searchNumberIndexName,
  searchRemovedTriggerName,
  searchTextIndexName,
  searchTextName,
} from '../queries/internal-names.js';
import { sendLater } from '../queries/later-statements.js';

/**
 * The PostgreSQL search index of a content table: a side table holding each row's id and the folded
 * text of its search columns, with a pg_trgm GIN index per column. It answers "contains this
 * keyword" with exactly SQLite's results:
 *
 * - The text is folded in JavaScript (`foldForSearch`: NFC, then JavaScript's lower-casing), the
 *   folding SQLite's `quire_fold` applies. PostgreSQL's `lower()` differs on characters such as `İ`
 *   and `ẞ` and does not normalize, so no folding happens in SQL: a keyword test is
 *   `folded LIKE '%' || folded keyword || '%'`, a plain substring test on the stored folded text.
 * - pg_trgm's index narrows the rows for keywords of three or more characters and is rechecked
 *   against the pattern; shorter keywords scan the (narrow) side table. Either way the answer is
 *   exact, so every keyword goes through here and there is no row-by-row path.
 * - The row write keeps it in step in its own transaction (`rowWrittenInSearchIndex`, called by the
 *   write path with the stored row); deletes cascade through the side table's foreign key. Nothing
 *   is pending, so a flush has nothing to do.
 * - Its columns are `collate "C"`: LIKE is then a byte-wise comparison, whatever the database's locale.
 * - Each row also has a number (`quire:n`, never reused: the in-memory index's row number) and the
 *   id of the transaction that last wrote it (`quire:x`); a delete notes the number and its
 *   transaction in SEARCH_REMOVED. A server's in-memory index (postgres-memory-search.ts) brings
 *   itself in step by reading the rows written, and the numbers removed, by transactions its
 *   snapshot did not see.
 */

/** Numbers of search-table rows deleted, with the deleting transaction (shared by every content table). */
export const SEARCH_REMOVED = 'quire_search_removed';
/** The trigger function that notes deleted search-table rows in SEARCH_REMOVED. */
const NOTE_REMOVED = 'quire_note_search_removed';
/** The search table's own columns, before the search columns. */
export const ROW_NUMBER = 'quire:n';
export const WRITTEN_BY = 'quire:x';

/** Rows folded and inserted per statement when a side table is (re)built. */
const FILL_BATCH = 500;

/**
 * Creates (or re-creates, when its columns differ) the search table of `table` and fills it. Of
 * `columns` (every locale's search columns) it folds the default locale's: searches in another
 * locale are answered by the in-memory index, which reads their columns from the content table and
 * follows their writes through the search rows (every row write upserts its own); SQL searches in
 * another locale scan.
 */
export async function ensureSearchText(db: Kysely<unknown>, table: string, indexed: readonly string[]): Promise<void> {
  const columns = defaultColumnsAmong(indexed);
  const existing = await searchTextColumns(db, table);
  if (existing !== null && sameColumns(existing, columns)) return;
  await dropSearchText(db, table);
  if (columns.length === 0) return;
  await ensureTrigramExtension(db);
  await ensureRemovedTable(db);
  const side = sql.id(searchTextName(table));
  const definitions = sql.join(columns.map((column) => sql`${sql.id(column)} text collate "C"`));
  await sql`create table ${side} (
    id text collate "C" primary key references ${sql.id(table)} (id) on delete cascade,
    ${sql.id(ROW_NUMBER)} bigint generated always as identity,
    ${sql.id(WRITTEN_BY)} xid8 not null default pg_current_xact_id(),
    ${definitions})`.execute(db);
  await fillSearchText(db, table, columns);
  for (const column of columns) {
    await sql`create index ${sql.id(searchTextIndexName(table, column))}
      on ${side} using gin (${sql.id(column)} gin_trgm_ops)`.execute(db);
  }
  await sql`create index ${sql.id(searchChangedIndexName(table))} on ${side} (${sql.id(WRITTEN_BY)})`.execute(db);
  await sql`create unique index ${sql.id(searchNumberIndexName(table))} on ${side} (${sql.id(ROW_NUMBER)})`.execute(db);
  await sql`create trigger ${sql.id(searchRemovedTriggerName(table))} after delete on ${side}
    referencing old table as gone for each statement execute function ${sql.id(NOTE_REMOVED)}(${sql.lit(table)})`.execute(
    db,
  );
}

/**
 * The table of removed search-table rows and the trigger function that fills it (both kept as
 * they are when they exist). The trigger is per statement: a delete of many rows is one insert.
 */
async function ensureRemovedTable(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists ${sql.id(SEARCH_REMOVED)} (
    table_name text collate "C" not null,
    n bigint not null,
    x xid8 not null default pg_current_xact_id(),
    at timestamptz not null default now())`.execute(db);
  await sql`create index if not exists ${sql.id(`${SEARCH_REMOVED}:x`)} on ${sql.id(SEARCH_REMOVED)} (table_name, x)`.execute(
    db,
  );
  await sql`create or replace function ${sql.id(NOTE_REMOVED)}() returns trigger language plpgsql as $$
    begin
      insert into ${sql.id(SEARCH_REMOVED)} (table_name, n) select tg_argv[0], g.${sql.id(ROW_NUMBER)} from gone g;
      return null;
    end $$`.execute(db);
}

/** Drops the search table of `table` (its indexes go with it). */
export async function dropSearchText(db: Kysely<unknown>, table: string): Promise<void> {
  await sql`drop table if exists ${sql.id(searchTextName(table))}`.execute(db);
}

/** Writes the folded search text of one stored row (insert or replace), in the caller's transaction. */
export async function rowWrittenInSearchIndex(
  db: Kysely<unknown>,
  table: string,
  columns: readonly string[],
  row: Record<string, unknown>,
): Promise<void> {
  await upsertFolded(db, table, columns, [row]);
}

/** Writes the folded search text of many stored rows in one statement (a bulk import's). */
export async function rowsWrittenInSearchIndex(
  db: Kysely<unknown>,
  table: string,
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  await upsertFolded(db, table, columns, rows);
}

/**
 * The oid of `table`'s search table as text, or null when it has none: a search table made again
 * has another oid, and new row numbers.
 */
export function searchTableOid(table: string) {
  const quoted = `"${searchTextName(table).replaceAll('"', '""')}"`;
  return sql<string | null>`to_regclass(${quoted})::oid::text`;
}

/** The columns the search table of `table` covers, or null when it has none. */
export async function searchTextColumns(db: Kysely<unknown>, table: string): Promise<string[] | null> {
  const result = await sql<{ name: string }>`select a.attname as name
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname = ${searchTextName(table)} and c.relkind = 'r'
      and a.attnum > 0 and not a.attisdropped
    order by a.attnum`.execute(db);
  if (result.rows.length === 0) return null;
  const names = result.rows.map((row) => row.name);
  // A table without its id key and row columns is not one this module made (or one made before
  // the row columns were): rebuild it.
  if (names[0] !== 'id' || names[1] !== ROW_NUMBER || names[2] !== WRITTEN_BY) return null;
  return names.slice(3);
}

/**
 * Rows of `table` whose search columns contain every keyword: one subquery on the search table,
 * each keyword a LIKE over the folded columns (any column may hold it).
 */
export function matchesSearchText(
  table: string,
  columns: readonly string[],
  keywords: readonly string[],
): Expression<SqlBool> {
  if (columns.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`${sql.id(table, 'id')} in (select s.id from ${sql.id(searchTextName(table))} s
    where ${foldedTextContains(columns, keywords)})`;
}

/**
 * The test of a search-table row aliased `s`: some of its folded `columns` contains each keyword
 * (folded here).
 */
export function foldedTextContains(columns: readonly string[], keywords: readonly string[]): Expression<SqlBool> {
  const tests = keywords.map((keyword) => {
    // Stored text never holds NUL (writes refuse it, and PostgreSQL's text cannot), nor can a parameter.
    if (keyword.includes('\u0000')) return sql<SqlBool>`false`;
    const pattern = `%${escapeLike(foldForSearch(keyword))}%`;
    const any = columns.map((column) => sql<SqlBool>`s.${sql.id(column)} like ${pattern}`);
    return sql<SqlBool>`(${sql.join(any, sql` or `)})`;
  });
  return tests.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`${sql.join(tests, sql` and `)}`;
}

/** `%`, `_` and the escape character itself made literal for LIKE (whose default escape is `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The folded value SQLite's `quire_fold` stores for a column value (non-text as its text form). */
function folded(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return foldForSearch(typeof value === 'string' ? value : String(value));
}

async function upsertFolded(
  db: Kysely<unknown>,
  table: string,
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0 || columns.length === 0) return;
  const names = sql.join([sql.id('id'), ...columns.map((column) => sql.id(column))]);
  const values = sql.join(
    rows.map((row) => sql`(${sql.join([String(row.id), ...columns.map((column) => folded(row[column]))])})`),
  );
  const updates = sql.join([
    sql`${sql.id(WRITTEN_BY)} = pg_current_xact_id()`,
    ...columns.map((column) => sql`${sql.id(column)} = excluded.${sql.id(column)}`),
  ]);
  const upsert = sql`insert into ${sql.id(searchTextName(table))} (${names}) values ${values}
    on conflict (id) do update set ${updates}`;
  await db.executeQuery(sendLater(upsert.compile(db)));
}

/** Reads the content table in id order, a batch at a time, and writes its folded text. */
async function fillSearchText(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const selected = sql.join([sql.id('id'), ...columns.map((column) => sql.id(column))]);
  let after: string | null = null;
  for (;;) {
    const from: ReturnType<typeof sql> = after === null ? sql`true` : sql`id > ${after}`;
    const batch = await sql<Record<string, unknown>>`select ${selected} from ${sql.id(table)}
      where ${from} order by id limit ${FILL_BATCH}`.execute(db);
    await upsertFolded(db, table, columns, batch.rows);
    if (batch.rows.length < FILL_BATCH) return;
    after = String(batch.rows[batch.rows.length - 1].id);
  }
}

/**
 * pg_trgm is a trusted extension (PostgreSQL 13+), so a database owner may create it. Checked
 * first so that a database where an administrator installed it needs no CREATE privilege.
 */
async function ensureTrigramExtension(db: Kysely<unknown>): Promise<void> {
  const found = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (found.rows.length > 0) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
}
