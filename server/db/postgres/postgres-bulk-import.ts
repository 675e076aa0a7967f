import { type Kysely, sql } from 'kysely';
import type { BulkImportTimings, BulkWriter } from '../bulk-writer.js';
import { PrefixSet } from '../prefix-set.js';
import { searchTextName } from '../queries/internal-names.js';
import type { StoredRow } from '../repositories/content-repository.js';
import type { PostgresQuireDb } from './postgres-database.js';
import { rowsWrittenInSearchIndex } from './postgres-search-index.js';

/** Most parameters one statement carries (PostgreSQL's limit is 65,535). */
const MAX_PARAMETERS = 30_000;
/** Most rows one INSERT carries. */
const MAX_BATCH_ROWS = 1000;

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** Rolls the transaction back when the import refuses rows. */
class Refused extends Error {}

/**
 * Runs a bulk import into `table` as ONE PostgreSQL transaction (all rows or none), the way
 * `runBulkImport` does on SQLite, with the same `BulkWriter`: the table is locked against other
 * servers' writes (reads go on) and its ids and the values of `lookupColumns` (its slugs) are read
 * once, so every lookup is answered in memory, exactly, as rows are validated. Rows are written in
 * multi-row INSERTs, their search text in batches alongside, each batch sent as soon as it is full:
 * PostgreSQL writes one batch while the next is validated (`work` must let the event loop run now
 * and then, as `importRows` does), and a refusal later in the file rolls them back with the rest.
 * Into an empty table the indexes are built once afterwards, as on SQLite. `work` returns whether
 * to commit; `timings` gets the time the indexes took.
 */
export async function runPostgresBulkImport(
  database: PostgresQuireDb,
  table: string,
  columns: readonly string[],
  lookupColumns: readonly string[],
  work: (writer: BulkWriter) => Promise<boolean>,
  timings?: BulkImportTimings,
): Promise<boolean> {
  try {
    await database.db.transaction().execute(async (trx) => {
      const db = trx as unknown as AnyDb;
      const trxDb = trx as unknown as Kysely<unknown>;
      // Writes through other servers wait for the import, so the values read here stay exact.
      await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(db);
      const existing = await db
        .selectFrom(table)
        .select(['id', ...lookupColumns])
        .execute();
      const ids = new Set(existing.map((row) => String(row.id)));
      const values = new Map(
        lookupColumns.map((column) => [
          column,
          new PrefixSet(existing.flatMap((row) => (typeof row[column] === 'string' ? [row[column] as string] : []))),
        ]),
      );
      const searched = await database.engine.searchIndex.indexedColumns(trxDb, table);
      // Into an empty table, the indexes are cheaper built once from the rows than kept row by row:
      // the content table's (unique ones on the lookup columns too: every value is checked in memory
      // here, and other writers wait for the lock) and its search table's trigram indexes.
      const rebuilt =
        existing.length === 0
          ? await deferredIndexes(db, table, searched?.length ? searchTextName(table) : null, lookupColumns)
          : [];
      for (const index of rebuilt) await sql`drop index ${sql.id(index.name)}`.execute(db);
      const batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
      let pending: StoredRow[] = [];
      // The batches sent, one after another on the transaction's connection; the first failure stops the rest.
      let written: Promise<void> = Promise.resolve();
      const send = () => {
        const rows = pending;
        pending = [];
        written = written.then(async () => {
          await db.insertInto(table).values(rows).execute();
          if (searched && searched.length > 0) await rowsWrittenInSearchIndex(trxDb, table, searched, rows);
        });
        // Seen by the await below; until then a failure must not count as unhandled.
        written.catch(() => {});
      };
      const writer: BulkWriter = {
        rowExists: (id) => ids.has(id),
        slugTaken: (column, slug) => valuesOf(values, column).has(slug),
        valuesStartingWith: (column, prefix) => valuesOf(values, column).startingWith(prefix),
        insert(row) {
          pending.push(Object.fromEntries(columns.map((column) => [column, row[column] ?? null])));
          ids.add(String(row.id));
          for (const [column, set] of values) if (typeof row[column] === 'string') set.add(row[column] as string);
          if (pending.length === batchRows) send();
        },
      };
      const commit = await work(writer);
      if (pending.length > 0) send();
      await written;
      if (!commit) throw new Refused();
      const indexing = performance.now();
      for (const index of rebuilt) await sql.raw(index.definition).execute(db);
      if (timings && rebuilt.length > 0) timings.indexMs = performance.now() - indexing;
      // Fresh statistics for the planner, committed with the rows: without them (autovacuum may be
      // off, or not yet round) a list of one status in title order is planned as a scan of every
      // row of that status and a sort instead of a walk of its index. ANALYZE reads a sample, so
      // it costs about the same at any size.
      await sql`analyze ${sql.table(table)}`.execute(db);
      if (searched && searched.length > 0) await sql`analyze ${sql.table(searchTextName(table))}`.execute(db);
      // Servers keeping counts of this table count again once the import commits.
      await database.engine.rowChanges?.rowsChanged(trxDb, table, true);
    });
    await markAllVisible(database.db as unknown as Kysely<unknown>, table);
    return true;
  } catch (error) {
    if (error instanceof Refused) return false;
    throw error;
  }
}

/**
 * VACUUMs an imported (or copied) table and its search table once the import has committed (it
 * cannot run in a transaction), so that the visibility map says their pages are all visible:
 * until then a list's index-only walk past an offset reads the table for each row it skips, to
 * check visibility. Autovacuum would do it later, competing with the first server. Not done
 * (nothing lost) where the user may not VACUUM.
 */
export async function markAllVisible(db: Kysely<unknown>, table: string): Promise<void> {
  try {
    await sql`vacuum ${sql.table(table)}`.execute(db);
    await sql`vacuum ${sql.table(searchTextName(table))}`.execute(db);
  } catch {
    // Autovacuum gets to it.
  }
}

/**
 * The indexes of `table` and `searchTable` to drop for the load and create again from their
 * definitions: every one but those of constraints (primary keys), and unique ones only when they are
 * the content table's and over columns of `lookupColumns` alone.
 */
async function deferredIndexes(
  db: AnyDb,
  table: string,
  searchTable: string | null,
  lookupColumns: readonly string[],
): Promise<{ name: string; definition: string }[]> {
  const found = await sql<{ name: string; definition: string; table: string; unique: boolean; columns: string[] }>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition, t.relname as table,
      i.indisunique as unique,
      case when 0 = any(i.indkey::int2[]) then null else array(select a.attname::text from pg_attribute a
        where a.attrelid = i.indrelid and a.attnum = any(i.indkey::int2[])) end as columns
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_class t on t.oid = i.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = current_schema() and t.relname = any(${[table, searchTable ?? table]}::text[])
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`.execute(db);
  const checked = new Set(lookupColumns);
  return found.rows.filter(
    (index) =>
      !index.unique ||
      (index.table === table && index.columns !== null && index.columns.every((column) => checked.has(column))),
  );
}

function valuesOf(values: Map<string, PrefixSet>, column: string): PrefixSet {
  const set = values.get(column);
  if (!set) throw new Error(`the bulk import does not look up ${column}`);
  return set;
}
