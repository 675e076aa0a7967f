import { Kysely } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { createContentTable } from '../repositories/content-schema-repository.js';
import { REGISTRY_TABLE } from '../schema.js';
import { openDatabase } from './sqlite-database.js';
import { openSqlite, type SqliteHandle } from './sqlite-dialect.js';
import { sqliteEngine } from './sqlite-engine.js';

/**
 * What Quire itself would write, to hold a database from elsewhere (a backup being restored)
 * against: the schema objects the current code creates, built in an empty in-memory database.
 */

/** A schema object as `sqlite_master` lists it. */
export interface SchemaObject {
  type: 'table' | 'index' | 'view' | 'trigger';
  name: string;
  /** The table an index or trigger belongs to (a table's or view's own name otherwise). */
  tbl_name: string;
  /** Null for the indexes SQLite makes itself (primary keys, UNIQUE constraints). */
  sql: string | null;
}

/** A content type's table and columns. */
export interface ContentTableSpec {
  table: string;
  columns: readonly ColumnDescriptor[];
  /** The site's locales, under which its localized columns are stored (DEFAULT_LOCALES when absent). */
  locales?: LocalesDocument;
}

/** Every schema object of a database. */
export function schemaObjects(raw: SqliteHandle): SchemaObject[] {
  return raw.prepare('select type, name, tbl_name, sql from sqlite_master').all() as SchemaObject[];
}

/** The registry and schema-version tables of a current Quire database, with their indexes. */
export async function referenceCoreSchema(): Promise<SchemaObject[]> {
  const database = await openDatabase(':memory:');
  try {
    return schemaObjects(database.raw).filter(isCoreObject);
  } finally {
    await database.close();
  }
}

/** Whether an object is (or belongs to) the registry or Kysely's schema-version tables. */
export function isCoreObject(object: SchemaObject): boolean {
  return object.tbl_name === REGISTRY_TABLE || object.tbl_name.startsWith('kysely_');
}

/**
 * The objects the current code creates for these content tables: each table, its SQL indexes, its
 * search triggers and their pending table.
 */
export async function referenceContentSchema(specs: readonly ContentTableSpec[]): Promise<SchemaObject[]> {
  const { raw, dialect } = openSqlite(':memory:');
  const db = new Kysely<unknown>({ dialect });
  try {
    for (const { table, columns, locales } of specs)
      await createContentTable(db, sqliteEngine, table, columns, locales);
    return schemaObjects(raw);
  } finally {
    await db.destroy();
  }
}

/** Whitespace collapsed and lower-cased (Quire's identifiers are lower-case), for comparing SQL. */
export function normalizeSql(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The column definitions and table constraints of a `CREATE TABLE` statement, normalized, or null
 * when the statement is not a plain one (a virtual table, or anything after its closing parenthesis
 * such as `WITHOUT ROWID` or `STRICT`). Commas inside parentheses and quotes do not split.
 */
export function columnDefinitions(createSql: string): string[] | null {
  if (!/^\s*create\s+table\s/i.test(createSql)) return null;
  const open = createSql.indexOf('(');
  if (open < 0) return null;
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = open + 1;
  for (let i = open + 1; i < createSql.length; i++) {
    const char = createSql[i];
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'" || char === '`') {
      quote = char;
    } else if (char === '[') {
      quote = ']';
    } else if (char === '(') {
      depth++;
    } else if (char === ')' && depth > 0) {
      depth--;
    } else if (char === ',' && depth === 0) {
      parts.push(createSql.slice(start, i));
      start = i + 1;
    } else if (char === ')') {
      parts.push(createSql.slice(start, i));
      return createSql.slice(i + 1).trim() === '' ? parts.map(normalizeSql) : null;
    }
  }
  return null;
}
