import { type Kysely, sql } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { dropOrderKeyColumn } from './order-key-columns.js';

/**
 * The SQL of a content table's locale storage columns (server/locales/localized-values.ts says
 * what they hold; server/locales/locale-storage-plan.ts which a change makes): added, renamed and
 * dropped as text columns, and every row's localized values read and written again a batch at a
 * time, in id order.
 */

/** Rows read and written again per statement when the locale columns are stored again. */
const STORE_BATCH = 500;

type AnyRows = Kysely<Record<string, Record<string, unknown>>>;

/** Adds text columns `names` to `table`. */
export async function addLocaleColumns(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  names: readonly string[],
): Promise<void> {
  for (const name of names) {
    await db.schema.alterTable(table).addColumn(name, engine.columnType('text')).execute();
  }
}

/** Renames locale columns of `table` (a localized column renamed takes its locale columns along). */
export async function renameLocaleColumns(
  db: Kysely<unknown>,
  table: string,
  renames: readonly { from: string; to: string }[],
): Promise<void> {
  for (const { from, to } of renames) await db.schema.alterTable(table).renameColumn(from, to).execute();
}

/**
 * Drops locale columns `names` of `table`, with any index on them and any order key column of
 * theirs first (SQLite cannot drop an indexed column, PostgreSQL one a generated column reads);
 * the indexes a table should have are planned and made again after (`rebuildContentIndexes`).
 */
export async function dropLocaleColumns(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  names: readonly string[],
): Promise<void> {
  if (names.length === 0) return;
  await dropIndexesOn(db, engine, table, names);
  for (const name of names) {
    await dropOrderKeyColumn(db, engine, table, name);
    await db.schema.alterTable(table).dropColumn(name).execute();
  }
}

/** Drops every index of `table` whose statement names one of `columns`. */
export async function dropIndexesOn(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  columns: readonly string[],
): Promise<void> {
  if (columns.length === 0) return;
  const quoted = columns.map((name) => `"${name}"`);
  for (const index of await engine.schema.indexes(db, table)) {
    if (index.table === table && quoted.some((name) => index.sql.includes(name))) {
      await db.schema.dropIndex(index.name).execute();
    }
  }
}

/**
 * Reads `columns` of every row of `table` (with its id), a batch at a time in id order, and
 * writes back what `restore` gives for the row (nothing when it gives null or no column).
 */
export async function restoreRows(
  db: Kysely<unknown>,
  table: string,
  columns: readonly string[],
  restore: (row: Record<string, unknown>) => Record<string, unknown> | null,
): Promise<void> {
  const rows = db as AnyRows;
  for await (const batch of rowBatches(db, table, columns)) {
    for (const row of batch) {
      const set = restore(row);
      if (set === null || Object.keys(set).length === 0) continue;
      await rows.updateTable(table).set(set).where(sql.ref('id'), '=', row.id).execute();
    }
  }
}

/** `columns` of every row of `table` with its id, a batch at a time, in id order. */
export async function* rowBatches(
  db: Kysely<unknown>,
  table: string,
  columns: readonly string[],
): AsyncGenerator<Record<string, unknown>[]> {
  const selected = sql.join([sql.id('id'), ...columns.filter((name) => name !== 'id').map((name) => sql.id(name))]);
  let after: string | null = null;
  for (;;) {
    const from: ReturnType<typeof sql> = after === null ? sql`true` : sql`id > ${after}`;
    const batch = await sql<Record<string, unknown>>`select ${selected} from ${sql.id(table)}
      where ${from} order by id limit ${STORE_BATCH}`.execute(db);
    if (batch.rows.length > 0) yield batch.rows;
    if (batch.rows.length < STORE_BATCH) return;
    after = String(batch.rows[batch.rows.length - 1].id);
  }
}
