import { type Kysely, sql } from 'kysely';
import type { BulkWriter } from './bulk-writer.js';
import type { StoredRow } from './content-repository.js';
import type { PostgresQuireDb } from './database.js';
import { rowsWrittenInSearchIndex } from './postgres-search-index.js';
import { PrefixSet } from './prefix-set.js';

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
 * once, so every lookup is answered in memory, exactly, as rows are validated. Once every row
 * passed, they are written in multi-row INSERTs and their search text in batches alongside; into
 * an empty table the plain indexes are built once afterwards, as on SQLite.
 * `work` returns whether to commit.
 */
export async function runPostgresBulkImport(
  database: PostgresQuireDb,
  table: string,
  columns: readonly string[],
  lookupColumns: readonly string[],
  work: (writer: BulkWriter) => Promise<boolean>,
): Promise<boolean> {
  try {
    await database.db.transaction().execute(async (trx) => {
      const db = trx as unknown as AnyDb;
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
      const pending: StoredRow[] = [];
      const writer: BulkWriter = {
        rowExists: (id) => ids.has(id),
        slugTaken: (column, slug) => valuesOf(values, column).has(slug),
        valuesStartingWith: (column, prefix) => valuesOf(values, column).startingWith(prefix),
        insert(row) {
          pending.push(Object.fromEntries(columns.map((column) => [column, row[column] ?? null])));
          ids.add(String(row.id));
          for (const [column, set] of values) if (typeof row[column] === 'string') set.add(row[column] as string);
        },
      };
      if (!(await work(writer))) throw new Refused();
      // Into an empty table, the plain indexes are cheaper built once from the rows than kept row by
      // row; unique ones stay (the database checks them as rows go in).
      const rebuilt =
        existing.length === 0
          ? (
              await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition
                from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(db)
            ).rows.filter((index) => !/^\s*create\s+unique\b/i.test(index.definition))
          : [];
      for (const index of rebuilt) await sql`drop index ${sql.id(index.name)}`.execute(db);
      const searched = await database.engine.searchIndex.indexedColumns(trx as unknown as Kysely<unknown>, table);
      const batch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
      for (let start = 0; start < pending.length; start += batch) {
        const rows = pending.slice(start, start + batch);
        await db.insertInto(table).values(rows).execute();
        if (searched && searched.length > 0) {
          await rowsWrittenInSearchIndex(trx as unknown as Kysely<unknown>, table, searched, rows);
        }
      }
      for (const index of rebuilt) await sql.raw(index.definition).execute(db);
      // Servers keeping counts of this table count again once the import commits.
      await database.engine.rowChanges?.rowsChanged(trx as unknown as Kysely<unknown>, table);
    });
    return true;
  } catch (error) {
    if (error instanceof Refused) return false;
    throw error;
  }
}

function valuesOf(values: Map<string, PrefixSet>, column: string): PrefixSet {
  const set = values.get(column);
  if (!set) throw new Error(`the bulk import does not look up ${column}`);
  return set;
}
