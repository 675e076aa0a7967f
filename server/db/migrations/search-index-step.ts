import type { Kysely } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { searchColumnsOf } from '../../../common/title-rules.js';
import type { DatabaseEngine } from '../engine.js';

/**
 * The step several migrations share: gives every content table the search objects today's engine
 * makes for its search columns (`ensure` leaves those already right as they are).
 */
export async function ensureSearchIndexes(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const registry = db as Kysely<{ quire_content_types: { table_name: string; columns: string } }>;
  const types = await registry.selectFrom('quire_content_types').select(['table_name', 'columns']).execute();
  for (const type of types) {
    if (!(await engine.schema.hasTable(db, type.table_name))) continue;
    const columns = JSON.parse(type.columns) as ColumnDescriptor[];
    await engine.searchIndex.ensure(db, type.table_name, searchColumnsOf(columns));
  }
}
