import { type Kysely, sql } from 'kysely';
import type { BulkWriter } from './bulk-writer.js';
import type { StoredRow } from './content-repository.js';
import type { PostgresQuireDb } from './database.js';
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
 * once, so every lookup is answered in memory, exactly, as rows are validated. Once every row
 * passed, they are written in multi-row INSERTs and their search text in batches alongside.
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
      const ids = new Set<string>();
      const values = new Map<string, Set<string>>(lookupColumns.map((column) => [column, new Set()]));
      const existing = await db
        .selectFrom(table)
        .select(['id', ...lookupColumns])
        .execute();
      for (const row of existing) {
        ids.add(String(row.id));
        for (const [column, set] of values) if (typeof row[column] === 'string') set.add(row[column] as string);
      }
      const pending: StoredRow[] = [];
      const writer: BulkWriter = {
        rowExists: (id) => ids.has(id),
        slugTaken: (column, slug) => valuesOf(values, column).has(slug),
        valuesStartingWith(column, prefix) {
          return new Set([...valuesOf(values, column)].filter((value) => value.startsWith(prefix)));
        },
        insert(row) {
          pending.push(Object.fromEntries(columns.map((column) => [column, row[column] ?? null])));
          ids.add(String(row.id));
          for (const [column, set] of values) if (typeof row[column] === 'string') set.add(row[column] as string);
        },
      };
      if (!(await work(writer))) throw new Refused();
      const searched = await database.engine.searchIndex.indexedColumns(trx as unknown as Kysely<unknown>, table);
      const batch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
      for (let start = 0; start < pending.length; start += batch) {
        const rows = pending.slice(start, start + batch);
        await db.insertInto(table).values(rows).execute();
        if (searched && searched.length > 0) {
          await rowsWrittenInSearchIndex(trx as unknown as Kysely<unknown>, table, searched, rows);
        }
      }
    });
    return true;
  } catch (error) {
    if (error instanceof Refused) return false;
    throw error;
  }
}

function valuesOf(values: Map<string, Set<string>>, column: string): Set<string> {
  const set = values.get(column);
  if (!set) throw new Error(`the bulk import does not look up ${column}`);
  return set;
}
