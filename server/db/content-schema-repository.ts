import { type Kysely, sql } from 'kysely';
import type { ColumnDescriptor } from '../contract/api-contract.js';
import { searchColumnsOf } from '../content/content-type.js';
import { fieldFor } from '../fields/field-registry.js';
import { dropSearchIndex, ensureSearchIndex } from './sqlite-search-index.js';

/**
 * DDL for content tables: one SQL table per content type, one SQL column per content column,
 * plus the system columns. Identifiers here come from validated descriptors, never from requests.
 */

/** Creates the table of a content type with its indexes and its search index. */
export async function createContentTable(
  db: Kysely<unknown>,
  table: string,
  columns: readonly ColumnDescriptor[],
): Promise<void> {
  let builder = db.schema.createTable(table).addColumn('id', 'text', (col) => col.primaryKey().notNull());
  for (const column of columns) {
    builder = builder.addColumn(column.name, fieldFor(column.type).sqlType);
  }
  await builder
    .addColumn('meta', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text')
    .addColumn('updated_by', 'text')
    .execute();

  for (const index of indexesFor(table, columns)) {
    let create = db.schema.createIndex(index.name).on(table).columns(index.columns);
    if (index.unique) create = create.unique();
    await create.execute();
  }
  await ensureSearchIndex(db, table, searchColumnsOf(columns));
}

/** Drops a content table (used when creating a type fails half-way, and by type deletion). */
export async function dropContentTable(db: Kysely<unknown>, table: string): Promise<void> {
  await dropSearchIndex(db, table);
  await db.schema.dropTable(table).ifExists().execute();
}

/** Whether a table exists. */
export async function tableExists(db: Kysely<unknown>, table: string): Promise<boolean> {
  const result = await sql<{
    found: number;
  }>`select count(*) as found from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  return (result.rows[0]?.found ?? 0) > 0;
}

interface IndexPlan {
  name: string;
  columns: string[];
  unique: boolean;
}

/**
 * Indexes that make the list endpoint's filters and orders cheap: slugs unique, one index per
 * select and datetime column, and (select, datetime, id) pairs for the common "published, newest
 * first" listing. Text columns are not indexed: search uses its own path.
 */
function indexesFor(table: string, columns: readonly ColumnDescriptor[]): IndexPlan[] {
  const plans: IndexPlan[] = [];
  const selects = columns.filter((column) => column.type === 'select');
  const datetimes = columns.filter((column) => column.type === 'datetime');
  for (const column of columns) {
    if (column.type === 'slug')
      plans.push({ name: `${table}_${column.name}_unique`, columns: [column.name], unique: true });
  }
  for (const column of [...selects, ...datetimes]) {
    plans.push({ name: `${table}_${column.name}_idx`, columns: [column.name, 'id'], unique: false });
  }
  for (const select of selects) {
    for (const datetime of datetimes) {
      plans.push({
        name: `${table}_${select.name}_${datetime.name}_idx`,
        columns: [select.name, datetime.name, 'id'],
        unique: false,
      });
    }
  }
  plans.push({ name: `${table}_created_at_idx`, columns: ['created_at', 'id'], unique: false });
  return plans;
}
