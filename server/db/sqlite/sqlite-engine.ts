import { type Kysely, type SqlBool, sql } from 'kysely';
import type { DatabaseEngine, IndexDefinition } from '../engine.js';
import { containsIgnoringCase, isUniqueViolation, jsonArrayContains } from './sqlite-dialect.js';
import { sqliteMemorySearch } from './sqlite-memory-search.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { dropSearchIndex, ensureSearchIndex, flushSearchIndex, indexedColumns } from './sqlite-search-index.js';

/** The SQLite engine: `quire_fold` for search, an in-memory search index, `sqlite_master` as catalog. */
export const sqliteEngine: DatabaseEngine = {
  kind: 'sqlite',
  locksRowsForWrites: false,
  // SQLite stores any type name as given; these are the ones its tables always had.
  columnType: (type) => type,
  // The plain scan folds row by row with quire_fold; it needs no table.
  containsIgnoringCase: (_table, columns, keyword) => containsIgnoringCase(columns, keyword),
  canHold: () => true,
  jsonArrayContains,
  // Index keys of any length spill to overflow pages.
  textIndexPrefix: null,
  // NULL is smaller than any value in its comparisons.
  sortsNullsFirst: true,
  idAmong: (ids) => sql<SqlBool>`${sql.id('id')} in ${ids}`,
  isUniqueViolation,
  // Its prepared statements are SQLite's own, which prepare themselves again after a schema change.
  isStaleStatement: () => false,
  // One writer at a time already (group commit runs writes one after another).
  lockUntilCommit: async () => {},
  searchIndex: {
    ensure: ensureSearchIndex,
    drop: dropSearchIndex,
    // The triggers note every written row in the pending table themselves.
    rowWritten: async () => {},
    flush: flushSearchIndex,
    flushes: true,
    indexedColumns,
    // No search index in the file: the in-memory one answers, or the plain scan (sqlite-search-index.ts).
    sql: null,
    memory: sqliteMemorySearch,
  },
  // One writer commits changes in the order of their ids: every change a read sees is final.
  changeOrder: { settledBelow: async () => null },
  schema: { hasTable, objectType, indexes },
  migrations: sqliteMigrations,
};

async function hasTable(db: Kysely<unknown>, name: string): Promise<boolean> {
  const result = await sql<{
    found: number;
  }>`select count(*) as found from sqlite_master where type = 'table' and name = ${name}`.execute(db);
  return (result.rows[0]?.found ?? 0) > 0;
}

// Tables, indexes and views share one namespace in SQLite, so any kind of object takes a name.
async function objectType(db: Kysely<unknown>, name: string): Promise<string | null> {
  const result = await sql<{ type: string }>`select type from sqlite_master where name = ${name} limit 1`.execute(db);
  return result.rows[0]?.type ?? null;
}

// The automatic indexes of primary keys and UNIQUE constraints are the ones without SQL.
async function indexes(
  db: Kysely<unknown>,
  table: string,
  alsoNamed: readonly string[] = [],
): Promise<IndexDefinition[]> {
  const named = alsoNamed.length === 0 ? sql`0` : sql`name in (${sql.join(alsoNamed)})`;
  const result = await sql<{ name: string; tbl_name: string; sql: string }>`select name, tbl_name, sql
    from sqlite_master where type = 'index' and sql is not null
      and (tbl_name = ${table} or ${named})`.execute(db);
  return result.rows.map((row) => ({ name: row.name, table: row.tbl_name, sql: normalizedIndexSql(row.sql) }));
}

/** SQLite keeps an index's SQL as written, but upper-cases its leading `CREATE [UNIQUE] INDEX`. */
function normalizedIndexSql(text: string): string {
  return text.replace(/^\s*create\s+(?:unique\s+)?index\b/i, (start) => start.toLowerCase().replace(/\s+/g, ' '));
}
