import type { Kysely } from 'kysely';
import { orderKeysOf, rebuildContentIndexes } from './content-index-steps.js';
import { forEachContentTable } from './content-table-steps.js';
import type { MigrationEngine } from './migration-engine.js';

/**
 * Where an index cannot hold any text (PostgreSQL), gives each `text` column of every content table
 * its order key column (its first characters, stored) and moves the list indexes from the
 * expression `left(column, n)` onto it, so lists in a text order walk their index alone. Each table
 * is written again once (all its keys in one statement). On SQLite no table has a key and every
 * index is as planned: nothing changes.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const engine = migrations['021-order-key-columns'];
  await forEachContentTable(db, engine, async (table, columns) => {
    await engine.addOrderKeyColumns(db, table, orderKeysOf(engine, columns));
    await rebuildContentIndexes(db, engine, table, columns);
  });
}
