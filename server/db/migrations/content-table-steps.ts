import type { Kysely } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import type { DatabaseEngine } from '../engine.js';

/**
 * Runs `step` on every content type's table that exists, with the type's columns as the registry
 * holds them (the loop of every migration that changes content tables).
 */
export async function forEachContentTable(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  step: (table: string, columns: ColumnDescriptor[]) => Promise<void>,
): Promise<void> {
  const registry = db as Kysely<{ quire_content_types: { table_name: string; columns: string } }>;
  const types = await registry.selectFrom('quire_content_types').select(['table_name', 'columns']).execute();
  for (const type of types) {
    if (!(await engine.schema.hasTable(db, type.table_name))) continue;
    await step(type.table_name, JSON.parse(type.columns) as ColumnDescriptor[]);
  }
}
