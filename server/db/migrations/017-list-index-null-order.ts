import type { Kysely } from 'kysely';
import { rebuildContentIndexes } from './content-index-steps.js';
import { forEachContentTable } from './content-table-steps.js';
import type { MigrationEngine } from './migration-engine.js';

/**
 * Gives content tables the list indexes as planned (content-index-steps.ts): where the engine puts
 * nulls last (PostgreSQL), lists put them first ascending, as on SQLite, and an index must say
 * `nulls first` to serve them; and `text` columns get indexes of their first characters. Indexes
 * already as planned are kept, so on SQLite this changes nothing.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const engine = migrations['017-list-index-null-order'];
  await forEachContentTable(db, engine, (table, columns) => rebuildContentIndexes(db, engine, table, columns));
}
