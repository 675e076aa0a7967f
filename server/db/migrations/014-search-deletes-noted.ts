import type { Kysely } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { searchColumnsOf } from '../../../common/title-rules.js';
import type { DatabaseEngine } from '../engine.js';

/**
 * Brings every content table's search index up to date with the engine. On SQLite the delete
 * trigger now notes deleted rows in the pending table, which the in-memory search index reads
 * (issue 13); `ensure` re-creates just that trigger where it is older, and changes nothing else.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const registry = db as Kysely<{ quire_content_types: { table_name: string; columns: string } }>;
  const types = await registry.selectFrom('quire_content_types').select(['table_name', 'columns']).execute();
  for (const type of types) {
    if (!(await engine.schema.hasTable(db, type.table_name))) continue;
    const columns = JSON.parse(type.columns) as ColumnDescriptor[];
    await engine.searchIndex.ensure(db, type.table_name, searchColumnsOf(columns));
  }
}
