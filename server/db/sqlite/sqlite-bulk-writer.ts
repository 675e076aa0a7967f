import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { BulkWriter } from '../bulk-writer.js';
import { PrefixSet } from '../prefix-set.js';
import type { StoredRow } from '../repositories/content-repository.js';

/** Most rows one INSERT carries: 10-30 % faster than one row per statement at 100k rows, no gain past ~50. */
const MAX_BATCH_ROWS = 64;
/** Most parameters one SQLite statement takes (SQLITE_MAX_VARIABLE_NUMBER since 3.32). */
const MAX_PARAMETERS = 32_766;

/** A `BulkWriter` of `sqlite-bulk-import.ts`; `finish` writes the rows it still holds. */
export interface SqliteBulkWriter extends BulkWriter {
  finish(): void;
}

/**
 * The writer into a table that was empty when the import began: slugs are looked up in memory, in
 * the values this import wrote (the table's unique indexes on them are dropped for the load), and
 * rows are inserted several to a statement. Ids are looked up in SQLite (the primary key's index
 * stays), after writing the rows held back, so a file that gives ids costs a statement per row, as
 * before, and a million ids are not kept twice.
 */
export function memoryBulkWriter(
  db: Kysely<unknown>,
  raw: Database.Database,
  table: string,
  columns: readonly string[],
  lookupColumns: readonly string[],
): SqliteBulkWriter {
  const batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
  const insertOne = raw.prepare(insertSql(db, table, columns, 1));
  const insertBatch = raw.prepare(insertSql(db, table, columns, batchRows));
  const exists = raw.prepare(`select 1 from ${quote(table)} where id = ?`).pluck();
  const values = new Map(lookupColumns.map((column) => [column, new PrefixSet()]));
  const valuesOf = (column: string) => {
    const set = values.get(column);
    if (!set) throw new Error(`the bulk import does not look up ${column}`);
    return set;
  };
  const held: unknown[] = [];
  let heldRows = 0;
  const flush = () => {
    // The rows held back are fewer than a batch: one statement each.
    const width = columns.length;
    for (let start = 0; start < held.length; start += width) insertOne.run(held.slice(start, start + width));
    held.length = 0;
    heldRows = 0;
  };
  return {
    rowExists(id) {
      flush();
      return exists.get(id) !== undefined;
    },
    slugTaken: (column, slug) => valuesOf(column).has(slug),
    valuesStartingWith: (column, prefix) => valuesOf(column).startingWith(prefix),
    insert(row: StoredRow) {
      for (const column of columns) held.push(row[column] ?? null);
      for (const [column, set] of values) {
        const value = row[column];
        if (typeof value === 'string') set.add(value);
      }
      if (++heldRows === batchRows) {
        insertBatch.run(held);
        held.length = 0;
        heldRows = 0;
      }
    },
    finish: flush,
  };
}

/** The writer into a table that already has rows: every lookup and insert is one statement. */
export function sqliteBulkWriter(
  db: Kysely<unknown>,
  raw: Database.Database,
  table: string,
  columns: readonly string[],
): SqliteBulkWriter {
  const insert = raw.prepare(insertSql(db, table, columns, 1));
  const exists = raw.prepare(`select 1 from ${quote(table)} where id = ?`).pluck();
  const taken = new Map<string, Database.Statement>();
  const startingWith = new Map<string, Database.Statement>();
  const statement = (cache: Map<string, Database.Statement>, column: string, text: string) => {
    let prepared = cache.get(column);
    if (!prepared) {
      prepared = raw.prepare(text).pluck();
      cache.set(column, prepared);
    }
    return prepared;
  };
  return {
    rowExists: (id) => exists.get(id) !== undefined,
    slugTaken: (column, slug) =>
      statement(taken, column, `select 1 from ${quote(table)} where ${quote(column)} = ?`).get(slug) !== undefined,
    valuesStartingWith(column, prefix) {
      const range = statement(
        startingWith,
        column,
        `select ${quote(column)} from ${quote(table)} where ${quote(column)} >= ? and ${quote(column)} < ?`,
      );
      const values = range.all(prefix, `${prefix}\u{10FFFF}`) as string[];
      return new Set(values.filter((value) => value.startsWith(prefix)));
    },
    insert(row) {
      insert.run(columns.map((column) => row[column] ?? null));
    },
    finish() {},
  };
}

/** Kysely writes the insert of `rows` rows (the dialect's SQL); it runs as one prepared statement. */
function insertSql(db: Kysely<unknown>, table: string, columns: readonly string[], rows: number): string {
  const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const sample = Object.fromEntries(columns.map((column) => [column, null]));
  return untyped
    .insertInto(table)
    .values(Array.from({ length: rows }, () => sample))
    .compile().sql;
}

/** An identifier quoted for SQLite. */
export function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
