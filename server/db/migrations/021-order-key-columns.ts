import type { Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { addOrderKeyColumns, orderKeysOf } from '../queries/order-key-columns.js';
import { rebuildContentIndexes } from '../repositories/content-schema-repository.js';
import { forEachContentTable } from './content-table-steps.js';

/**
 * On PostgreSQL, gives each `text` column of every content table its order key column (its first
 * 200 characters, stored; order-key-columns.ts) and moves the list indexes from the expression
 * `left(column, 200)` onto it, so lists in a text order walk their index alone. Each table is
 * written again once (all its keys in one statement): at 1M rows about 15 s for the table and 1-2 s
 * an index. On SQLite no table has a key and every index is as planned: nothing changes.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await forEachContentTable(db, engine, async (table, columns) => {
    await addOrderKeyColumns(db, engine, table, orderKeysOf(engine, columns));
    await rebuildContentIndexes(db, engine, table, columns);
  });
}
