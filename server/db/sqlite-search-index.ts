import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { sameColumns } from './engine.js';
import { searchIndexName, searchPendingName, searchTriggerName } from './internal-names.js';
import { containsIgnoringCase, foldForSearch } from './sqlite-dialect.js';
import { noteFlushed } from './sqlite-memory-search.js';

/**
 * The SQLite search index of a content table: an FTS5 `trigram` table over the folded text of its
 * search columns (title, slug), kept in sync by triggers. It answers "contains this keyword" without
 * scanning the table, with exactly the plain scan's results:
 *
 * - The index holds `quire_fold(column)` (NFC, then JavaScript's Unicode lower-casing), the same
 *   folding the plain scan applies, and the tokenizer is `case_sensitive 1` so FTS5 folds nothing
 *   of its own (its folding differs from JavaScript's on characters such as `İ` or `ẞ`, and it
 *   ignores normalization). A trigram phrase query over folded text is then an exact substring
 *   test of the folded keyword: the same test as `instr(quire_fold(column), keyword) > 0`.
 * - Trigrams cannot answer keywords shorter than three characters; those keep the plain scan.
 * - Writes do not touch the index: triggers note new and changed rows in a small pending table,
 *   searches check those rows one by one, and `flushSearchIndex` moves them into the index in
 *   batches. An FTS5 insert committed on its own measured about 1 ms (its segment and structure
 *   pages rewritten per transaction), three times a plain row insert.
 * - The index table is keyed by the content row's rowid (content tables have an indexed primary
 *   key, so VACUUM keeps their rowids: SQLite copies rowids of tables with indexes). It keeps its
 *   own copy of the folded text: an external-content table cannot, as the folded text is not a
 *   column of the content table, and a contentless one with deletes (`contentless_delete=1`)
 *   measured four times slower to fill (64 µs against 14 µs per row).
 *
 * The triggers call `quire_fold`, which Quire registers on every connection it opens: a tool that
 * writes content rows outside Quire must register it too (reads need nothing).
 */

/** Shortest keyword, in code points after folding, that the trigram index can answer. */
export const MIN_INDEXED_KEYWORD_LENGTH = 3;

/** The writes each of which has a trigger keeping the index in step. */
const TRIGGER_EVENTS = ['insert', 'update', 'delete'] as const;

/** Creates (or re-creates, when its columns differ) the search index of a table and fills it. */
export async function ensureSearchIndex(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const existing = await indexedColumns(db, table);
  if (existing !== null && sameColumns(existing, columns)) {
    if (!(await notesDeletes(db, table))) await createDeleteTrigger(db, table);
    return;
  }
  await dropSearchIndex(db, table);
  if (columns.length === 0) return;
  const index = searchIndexName(table);
  const list = sql.join(columns.map((column) => sql.id(column)));
  await sql`create virtual table ${sql.id(index)} using fts5(${list}, tokenize='trigram case_sensitive 1')`.execute(db);
  const pending = sql.id(searchPendingName(table));
  await sql`create table ${pending} (rowid integer primary key)`.execute(db);
  await sql`create trigger ${sql.id(searchTriggerName(table, 'insert'))} after insert on ${sql.id(table)} begin
    insert or replace into ${pending}(rowid) values (new.rowid);
  end`.execute(db);
  await createDeleteTrigger(db, table);
  await sql`create trigger ${sql.id(searchTriggerName(table, 'update'))} after update of ${list} on ${sql.id(table)} begin
    delete from ${sql.id(index)} where rowid = old.rowid;
    insert or replace into ${pending}(rowid) values (new.rowid);
  end`.execute(db);
  const source = sql.join(columns.map((column) => sql`quire_fold(${sql.id(column)})`));
  await sql`insert into ${sql.id(index)}(rowid, ${list}) select rowid, ${source} from ${sql.id(table)}`.execute(db);
}

/**
 * (Re-)creates the delete trigger. A deleted row is noted as pending too, for the in-memory index
 * (sqlite-memory-search.ts): the FTS5 side finds no such row in the table, so it neither matches
 * nor is flushed. Triggers made before this removed the row from the pending table instead.
 */
async function createDeleteTrigger(db: Kysely<unknown>, table: string): Promise<void> {
  const trigger = sql.id(searchTriggerName(table, 'delete'));
  const pending = sql.id(searchPendingName(table));
  await sql`drop trigger if exists ${trigger}`.execute(db);
  await sql`create trigger ${trigger} after delete on ${sql.id(table)} begin
    delete from ${sql.id(searchIndexName(table))} where rowid = old.rowid;
    insert or replace into ${pending}(rowid) values (old.rowid);
  end`.execute(db);
}

/** Whether the delete trigger notes deleted rows in the pending table (see `createDeleteTrigger`). */
async function notesDeletes(db: Kysely<unknown>, table: string): Promise<boolean> {
  const found = await sql<{ sql: string }>`select sql from sqlite_master
    where type = 'trigger' and name = ${searchTriggerName(table, 'delete')}`.execute(db);
  return (found.rows[0]?.sql ?? '').includes(`insert or replace into "${searchPendingName(table)}"`);
}

/** Drops the search index of a table and its triggers (dropping the table drops the triggers too). */
export async function dropSearchIndex(db: Kysely<unknown>, table: string): Promise<void> {
  for (const event of TRIGGER_EVENTS) {
    await sql`drop trigger if exists ${sql.id(searchTriggerName(table, event))}`.execute(db);
  }
  await sql`drop table if exists ${sql.id(searchIndexName(table))}`.execute(db);
  await sql`drop table if exists ${sql.id(searchPendingName(table))}`.execute(db);
}

/**
 * Moves the rows written since the last flush into the index, in one transaction (run it inside
 * one: a row must never be in the index twice). Searches give the same rows before and after.
 */
export async function flushSearchIndex(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const index = sql.id(searchIndexName(table));
  const pending = sql.id(searchPendingName(table));
  const list = sql.join(columns.map((column) => sql.id(column)));
  const folded = sql.join(columns.map((column) => sql`quire_fold(t.${sql.id(column)})`));
  await sql`insert into ${index}(rowid, ${list})
    select t.rowid, ${folded} from ${pending} p join ${sql.id(table)} t on t.rowid = p.rowid`.execute(db);
  await noteFlushed(db, table);
  await sql`delete from ${pending}`.execute(db);
}

/** The columns the search index of `table` covers, or null when it has none. */
export async function indexedColumns(db: Kysely<unknown>, table: string): Promise<string[] | null> {
  const index = searchIndexName(table);
  const found = await sql<{ n: number }>`select count(*) as n from sqlite_master
    where type = 'table' and name = ${index}`.execute(db);
  if ((found.rows[0]?.n ?? 0) === 0) return null;
  // Each trigger must exist too, writing to the pending table, or the index would drift from the table.
  const triggerNames = TRIGGER_EVENTS.map((event) => searchTriggerName(table, event));
  const triggers = await sql<{ n: number }>`select count(*) as n from sqlite_master
    where type = 'trigger' and tbl_name = ${table} and name in (${sql.join(triggerNames)})
      and instr(sql, ${searchPendingName(table)}) > 0`.execute(db);
  if (Number(triggers.rows[0]?.n ?? 0) !== TRIGGER_EVENTS.length) return null;
  const info = await sql<{ name: string }>`select name from pragma_table_info(${index})`.execute(db);
  return info.rows.map((row) => row.name);
}

/** Whether the trigram index can answer this keyword exactly. */
export function isIndexableKeyword(keyword: string): boolean {
  const folded = foldForSearch(keyword);
  // Control characters stay with the plain scan: FTS5 query strings are not meant to carry them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point.
  return [...folded].length >= MIN_INDEXED_KEYWORD_LENGTH && !/[\u0000-\u001f]/.test(folded);
}

/**
 * Rows of `table` whose search columns contain every keyword (each checked by `isIndexableKeyword`):
 * one FTS5 query with one quoted phrase per keyword, joined with AND, plus the rows written since
 * the last flush, checked one by one (there are few).
 */
export function matchesSearchIndex(
  table: string,
  columns: readonly string[],
  keywords: readonly string[],
): Expression<SqlBool> {
  const query = keywords.map((keyword) => `"${foldForSearch(keyword).replaceAll('"', '""')}"`).join(' AND ');
  const index = sql.id(searchIndexName(table));
  const recent = sql.join(
    keywords.map((keyword) => containsIgnoringCase(columns, keyword)),
    sql` and `,
  );
  return sql<SqlBool>`(rowid in (select rowid from ${index} where ${index} match ${query})
    or (rowid in (select rowid from ${sql.id(searchPendingName(table))}) and ${recent}))`;
}
