import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { BulkWriter } from './bulk-writer.js';
import type { SqliteQuireDb } from './database.js';
import { searchIndexName, searchTriggerName } from './internal-names.js';

/** Page cache during an import (KiB, as SQLite's negative cache_size): the indexes stay in memory. */
const IMPORT_CACHE_KIB = 512 * 1024;

/**
 * Runs a bulk import into `table` as ONE SQLite transaction (all rows or none): prepared statements
 * for every lookup and insert, a large page cache, and the search index filled once at the end
 * instead of by its insert trigger row by row (the trigger is dropped and re-created inside the same
 * transaction, so a failed import leaves it as it was), and into an empty table the plain indexes
 * built once at the end. `work` returns whether to commit.
 */
export async function runBulkImport(
  database: SqliteQuireDb,
  table: string,
  columns: readonly string[],
  work: (writer: BulkWriter) => Promise<boolean>,
): Promise<boolean> {
  const { raw } = database;
  const previousCache = raw.pragma('cache_size', { simple: true });
  raw.pragma(`cache_size = -${IMPORT_CACHE_KIB}`);
  const index = searchIndexName(table);
  const insertTrigger = searchTriggerName(table, 'insert');
  const trigger = raw
    .prepare(`select sql from sqlite_master where type = 'trigger' and name = ?`)
    .pluck()
    .get(insertTrigger) as string | undefined;
  raw.exec('begin immediate');
  let committed = false;
  try {
    const lastRowid =
      (raw
        .prepare(`select coalesce(max(rowid), 0) from ${quote(table)}`)
        .pluck()
        .get() as number) ?? 0;
    if (trigger) raw.exec(`drop trigger ${quote(insertTrigger)}`);
    // Into an empty table, the plain indexes are cheaper built once from the rows than kept row by
    // row (random inserts into five b-trees); unique ones stay, they answer the lookups.
    const deferred =
      lastRowid === 0
        ? (raw
            .prepare(`select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null`)
            .all(table) as { name: string; sql: string }[])
        : [];
    const rebuilt = deferred.filter((plan) => !/^\s*create\s+unique\b/i.test(plan.sql));
    for (const plan of rebuilt) raw.exec(`drop index ${quote(plan.name)}`);
    const writer = bulkWriter(database.db as unknown as Kysely<unknown>, raw, table, columns);
    const commit = await work(writer);
    if (commit) {
      for (const plan of rebuilt) raw.exec(plan.sql);
      if (trigger) {
        const searched = (raw.prepare(`select name from pragma_table_info(?)`).pluck().all(index) as string[]).map(
          quote,
        );
        const folded = searched.map((column) => `quire_fold(${column})`);
        raw
          .prepare(
            `insert into ${quote(index)}(rowid, ${searched.join(', ')}) select rowid, ${folded.join(', ')} from ${quote(table)} where rowid > ?`,
          )
          .run(lastRowid);
        raw.exec(trigger);
      }
      raw.exec('commit');
      committed = true;
    }
    return commit;
  } finally {
    if (!committed && raw.inTransaction) raw.exec('rollback');
    raw.pragma(`cache_size = ${previousCache}`);
  }
}

function bulkWriter(
  db: Kysely<unknown>,
  raw: Database.Database,
  table: string,
  columns: readonly string[],
): BulkWriter {
  const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  // Kysely writes the insert (the dialect's SQL); it runs as one prepared statement.
  const sample = Object.fromEntries(columns.map((column) => [column, null]));
  const insert = raw.prepare(untyped.insertInto(table).values(sample).compile().sql);
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
      insert.run(...columns.map((column) => row[column] ?? null));
    },
  };
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
