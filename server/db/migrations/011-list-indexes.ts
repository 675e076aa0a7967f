import type { Kysely } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { rebuildContentIndexes } from '../content-schema-repository.js';
import type { DatabaseEngine } from '../engine.js';

/**
 * Gives every content table the indexes lists need in any order with any select or relation filter
 * (see `content-index-plan.ts`): an index per orderable column, one per filter column and order,
 * and a narrow one per filter column for exact counts. Indexes already as planned are kept, so a
 * table only pays for the ones it lacked (at 1M rows about 1-2 s each).
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const registry = db as Kysely<{ quire_content_types: { table_name: string; columns: string } }>;
  const types = await registry.selectFrom('quire_content_types').select(['table_name', 'columns']).execute();
  for (const type of types) {
    if (!(await engine.schema.hasTable(db, type.table_name))) continue;
    await rebuildContentIndexes(db, engine, type.table_name, JSON.parse(type.columns) as ColumnDescriptor[]);
  }
}
