import { type Kysely, sql } from 'kysely';
import { internalName } from '../migrations/content-index-steps.js';
import type {
  CatalogIndex,
  ContentTableEngine,
  EngineMigrations,
  EngineStep,
  InternalNamespaceEngine,
  NumberedIdEngine,
} from '../migrations/migration-engine.js';

/**
 * SQLite's steps of the migrations, by migration name. Frozen as the migrations are: they carry
 * their own SQL rather than calling the engine's code of today (sqlite-engine.ts,
 * sqlite-search-index.ts), which may change; a later schema change is a new migration with steps
 * of its own.
 */

/** Nothing to make: the migration's object exists only where servers share the database. */
const nothing: EngineStep = { up: async () => {} };

/** The rowid: the largest id so far plus one, so ids follow the order rows were written. */
const rowid: NumberedIdEngine = {
  numberedId: (create) => create.addColumn('id', 'integer', (column) => column.primaryKey()),
};

/** AUTOINCREMENT: ids never reused, even after the last row is deleted. */
const autoincrement: NumberedIdEngine = {
  numberedId: (create) => create.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement()),
};

/** A quoted SQL identifier. */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

const SEARCH_TRIGGER_EVENTS = ['insert', 'update', 'delete'] as const;
type SearchTriggerEvent = (typeof SEARCH_TRIGGER_EVENTS)[number];

const pendingName = (table: string) => internalName('fts_pending', table);
const triggerName = (table: string, event: SearchTriggerEvent) => internalName('fts_trigger', table, event);
/** The FTS5 search index content tables had before migration 018 (with its shadow tables). */
const ftsName = (table: string) => internalName('fts', table, '');

/**
 * The triggers noting a table's search changes in its pending table: every inserted row, every row
 * whose search columns change, every deleted row. `CREATE TRIGGER` upper-cased, as SQLite stores
 * it, so the stored text equals the made one.
 */
function searchTriggerSql(table: string, columns: readonly string[]): Record<SearchTriggerEvent, string> {
  const pending = quoted(pendingName(table));
  const note = (row: 'new' | 'old') => `begin insert or replace into ${pending}(rowid) values (${row}.rowid); end`;
  const create = (event: SearchTriggerEvent, when: string, row: 'new' | 'old') =>
    `CREATE TRIGGER ${quoted(triggerName(table, event))} after ${when} on ${quoted(table)} ${note(row)}`;
  return {
    insert: create('insert', 'insert', 'new'),
    update: create('update', `update of ${columns.map(quoted).join(', ')}`, 'new'),
    delete: create('delete', 'delete', 'old'),
  };
}

/** The columns the triggers of `table` note, when all three are exactly `searchTriggerSql`'s and its pending table exists. */
async function notedSearchColumns(db: Kysely<unknown>, table: string): Promise<string[] | null> {
  const names = SEARCH_TRIGGER_EVENTS.map((event) => triggerName(table, event));
  const rows = await sql<{ name: string; sql: string | null }>`select name, sql from sqlite_master
    where type = 'trigger' and tbl_name = ${table} and name in (${sql.join(names)})
    union all select name, null from sqlite_master where type = 'table' and name = ${pendingName(table)}`.execute(db);
  const sqlOf = new Map(rows.rows.map((row) => [String(row.name), row.sql === null ? null : String(row.sql)]));
  if (!sqlOf.has(pendingName(table))) return null;
  const update = sqlOf.get(triggerName(table, 'update'));
  const list = update
    ? /^CREATE TRIGGER "(?:[^"]|"")*" after update of ((?:"(?:[^"]|"")*"(?:, )?)+) on /.exec(update)?.[1]
    : undefined;
  if (!list) return null;
  const columns = [...list.matchAll(/"((?:[^"]|"")*)"/g)].map((match) => match[1].replaceAll('""', '"'));
  if (columns.length === 0) return null;
  const expected = searchTriggerSql(table, columns);
  const exact = SEARCH_TRIGGER_EVENTS.every((event) => sqlOf.get(triggerName(table, event)) === expected[event]);
  return exact ? columns : null;
}

/**
 * The search objects of a table: a pending table and the triggers noting changed rows in it (the
 * in-memory search index reads them again). No FTS5 index: one made before 018 is dropped.
 */
async function ensureSearchIndex(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  if (columns.length === 0) {
    for (const event of SEARCH_TRIGGER_EVENTS) {
      await sql`drop trigger if exists ${sql.id(triggerName(table, event))}`.execute(db);
    }
    await sql`drop table if exists ${sql.id(ftsName(table))}`.execute(db);
    await sql`drop table if exists ${sql.id(pendingName(table))}`.execute(db);
    return;
  }
  await sql`drop table if exists ${sql.id(ftsName(table))}`.execute(db);
  await sql`create table if not exists ${sql.id(pendingName(table))} (rowid integer primary key)`.execute(db);
  const noted = await notedSearchColumns(db, table);
  if (noted !== null && noted.length === columns.length && columns.every((column) => noted.includes(column))) return;
  const statements = searchTriggerSql(table, columns);
  for (const event of SEARCH_TRIGGER_EVENTS) {
    await sql`drop trigger if exists ${sql.id(triggerName(table, event))}`.execute(db);
    await sql.raw(statements[event]).execute(db);
  }
}

/** SQLite keeps an index's SQL as written, but upper-cases its leading `CREATE [UNIQUE] INDEX`. */
function normalizedIndexSql(text: string): string {
  return text.replace(/^\s*create\s+(?:unique\s+)?index\b/i, (start) => start.toLowerCase().replace(/\s+/g, ' '));
}

/** Content tables: SQLite's own type names, nulls first, any text in an index, `sqlite_master` as catalog. */
const contentTables: ContentTableEngine = {
  schema: {
    async hasTable(db, name) {
      const result = await sql<{ found: number }>`select count(*) as found from sqlite_master
        where type = 'table' and name = ${name}`.execute(db);
      return (result.rows[0]?.found ?? 0) > 0;
    },
    // The automatic indexes of primary keys and UNIQUE constraints are the ones without SQL.
    async indexes(db, table, alsoNamed): Promise<CatalogIndex[]> {
      const named = alsoNamed.length === 0 ? sql`0` : sql`name in (${sql.join(alsoNamed)})`;
      const result = await sql<{ name: string; tbl_name: string; sql: string }>`select name, tbl_name, sql
        from sqlite_master where type = 'index' and sql is not null
          and (tbl_name = ${table} or ${named})`.execute(db);
      return result.rows.map((row) => ({ name: row.name, table: row.tbl_name, sql: normalizedIndexSql(row.sql) }));
    },
  },
  columnType: (type) => type,
  textIndexPrefix: null,
  sortsNullsFirst: true,
  addOrderKeyColumns: async () => {},
  ensureSearchIndex,
};

/** Migration 008: the search index, pending table and triggers of a table under their names before it. */
const internalNamespace: InternalNamespaceEngine = {
  ...contentTables,
  async dropOlderSearchNames(db, table) {
    const index = `quire_search_${table}`;
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger if exists ${sql.id(`${index}_${event}`)}`.execute(db);
    }
    await sql`drop table if exists ${sql.id(index)}`.execute(db);
    await sql`drop table if exists ${sql.id(`${index}_pending`)}`.execute(db);
  },
};

/** SQLite's steps, by migration name. */
export const sqliteMigrations: EngineMigrations = {
  '002-starter-types': contentTables,
  '004-article-and-menu-types': contentTables,
  '005-search-index': contentTables,
  '007-search-index-batches': contentTables,
  '008-internal-namespace': internalNamespace,
  // Uploads are files in `media/` beside the database file.
  '010-media-table': nothing,
  '011-list-indexes': contentTables,
  '013-revisions': rowid,
  '014-search-deletes-noted': contentTables,
  '015-schedules-and-hooks': autoincrement,
  // One process writes the file; its read cache hears of every write.
  '016-row-changes': nothing,
  '017-list-index-null-order': contentTables,
  '018-search-index-in-memory': contentTables,
  '019-change-number-function': nothing,
  '020-search-row-numbers': contentTables,
  '021-order-key-columns': contentTables,
  '022-registry-check': nothing,
  '023-slug-gap-tokens': nothing,
  '026-audit-log': rowid,
  // One writer commits changes in the order of their ids, so the transaction column stays 0.
  '030-change-feed': {
    ...autoincrement,
    transactionColumn: (create) => create.addColumn('tx', 'integer', (column) => column.notNull().defaultTo(0)),
  },
  '035-search-text-columns': contentTables,
};
