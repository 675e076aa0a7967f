import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { BulkImportTimings, BulkWriter } from '../bulk-writer.js';
import { searchTriggerName } from '../queries/internal-names.js';
import { memoryBulkWriter, quote, sqliteBulkWriter } from './sqlite-bulk-writer.js';
import type { SqliteQuireDb } from './sqlite-database.js';

/** Page cache during an import (KiB, as SQLite's negative cache_size): the indexes stay in memory. */
const IMPORT_CACHE_KIB = 512 * 1024;

/** One plain (or unique) index of the table, dropped for the load and created again from its SQL. */
interface IndexPlan {
  name: string;
  sql: string;
}

/**
 * Runs a bulk import into `table` as ONE SQLite transaction (all rows or none), with one prepared
 * insert and a large page cache. The search insert trigger is dropped for the load and re-created
 * in the same transaction, so in-memory search indexes are built again from the table rather than
 * from a pending row per imported row.
 *
 * Into an empty table, slug lookups (`lookupColumns`) are answered from memory (exact: no other
 * writer can add rows meanwhile), every index but the primary key's is built once after the load,
 * rows go in multi-row INSERTs (`memoryBulkWriter`), and the journal is a rollback journal when
 * no other connection is open (`rollbackJournalIfAlone`). `work` returns whether to commit.
 */
export async function runBulkImport(
  database: SqliteQuireDb,
  table: string,
  columns: readonly string[],
  lookupColumns: readonly string[],
  work: (writer: BulkWriter) => Promise<boolean>,
  timings?: BulkImportTimings,
): Promise<boolean> {
  const { raw } = database;
  const previousCache = raw.pragma('cache_size', { simple: true });
  raw.pragma(`cache_size = -${IMPORT_CACHE_KIB}`);
  const insertTrigger = searchTriggerName(table, 'insert');
  const trigger = raw
    .prepare(`select sql from sqlite_master where type = 'trigger' and name = ?`)
    .pluck()
    .get(insertTrigger) as string | undefined;
  const isEmpty = raw.prepare(`select not exists (select 1 from ${quote(table)})`).pluck();
  const journal = isEmpty.get() === 1 ? rollbackJournalIfAlone(raw) : false;
  // Schema statements through the statement runner, which counts them: the connection's in-memory
  // search indexes then see the trigger dropped and made again (sqlite-memory-search-state.ts).
  const schema = (text: string) => database.runner.run(text, []);
  raw.exec('begin immediate');
  let committed = false;
  try {
    if (trigger) await schema(`drop trigger ${quote(insertTrigger)}`);
    // Asked again inside the transaction: another process may have written since.
    const empty = isEmpty.get() === 1;
    const deferred = empty ? deferredIndexes(raw, table, lookupColumns) : [];
    for (const plan of deferred) await schema(`drop index ${quote(plan.name)}`);
    const db = database.db as unknown as Kysely<unknown>;
    const writer = empty
      ? memoryBulkWriter(db, raw, table, columns, lookupColumns)
      : sqliteBulkWriter(db, raw, table, columns);
    const commit = await work(writer);
    if (commit) {
      writer.finish();
      const indexing = performance.now();
      for (const plan of deferred) await schema(plan.sql);
      if (timings && deferred.length > 0) timings.indexMs = performance.now() - indexing;
      if (trigger) await schema(trigger);
      raw.exec('commit');
      committed = true;
    }
    return commit;
  } finally {
    if (!committed && raw.inTransaction) raw.exec('rollback');
    raw.pragma(`cache_size = ${previousCache}`);
    if (journal) backToWal(raw);
  }
}

/**
 * The indexes to build after loading an empty table: every one SQLite keeps from an SQL statement
 * (not the primary key's), except unique ones over a column the import does not check in memory:
 * those must refuse a duplicate as it goes in.
 */
function deferredIndexes(raw: Database.Database, table: string, lookupColumns: readonly string[]): IndexPlan[] {
  const indexes = raw
    .prepare(`select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null`)
    .all(table) as IndexPlan[];
  const checked = new Set(lookupColumns);
  const columnsOf = raw.prepare('select name from pragma_index_info(?)').pluck();
  return indexes.filter(
    (plan) =>
      !/^\s*create\s+unique\b/i.test(plan.sql) ||
      (columnsOf.all(plan.name) as (string | null)[]).every((column) => column !== null && checked.has(column)),
  );
}

/**
 * Switches the connection from WAL to a rollback journal for the import when no other connection
 * has the database open (else SQLite refuses and the import stays in WAL): new pages past the end
 * of the file are then written once, where WAL writes them twice (log, then checkpoint).
 * `synchronous=FULL` stays, so the COMMIT is as durable; `backToWal` switches back after it, and
 * every connection asks for WAL again when it opens (sqlite-dialect.ts), so a crash in between
 * leaves nothing to repair. Meanwhile another process opening the database waits instead of reading.
 */
function rollbackJournalIfAlone(raw: Database.Database): boolean {
  const timeout = raw.pragma('busy_timeout', { simple: true });
  raw.pragma('busy_timeout = 0');
  try {
    return raw.pragma('journal_mode = delete', { simple: true }) === 'delete';
  } catch {
    return false; // SQLITE_BUSY: another connection has the database open
  } finally {
    raw.pragma(`busy_timeout = ${timeout}`);
  }
}

function backToWal(raw: Database.Database): void {
  try {
    raw.pragma('journal_mode = wal');
  } catch {
    // Another process opened the database meanwhile and holds it; its own open asked for WAL, and so
    // does the next one: the journal mode is only a setting, the rows are committed either way.
  }
}
