import { type Kysely, sql } from 'kysely';
import { contentIndexName } from './content-index-steps.js';

/**
 * Indexes `updated_at` of every content table (new tables get it with their other indexes), so the
 * editor's "recently updated" sort is an index walk rather than a sort of the whole table. It takes
 * the name 008 gives it: its first name, `<table>_updated_at_idx`, could be a content table's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const tables = await sql<{ table_name: string }>`select table_name from quire_content_types`.execute(db);
  for (const { table_name: table } of tables.rows) {
    await db.schema
      .createIndex(contentIndexName(table, ['updated_at'], false))
      .ifNotExists()
      .on(table)
      .columns(['updated_at', 'id'])
      .execute();
  }
}
