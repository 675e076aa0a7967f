import { type Kysely, sql } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { searchColumnsOf } from '../../../common/title-rules.js';
import { rebuildContentIndexes } from '../content-schema-repository.js';
import type { DatabaseEngine } from '../engine.js';

/**
 * Moves every content table's internal objects into the `quire_` namespace (see `internal-names.ts`):
 * the search index, its pending table and triggers, and the SQL indexes, which used names a content
 * type could take (`quire_search_news_pending` was also the search index of a type `news_pending`,
 * `news_status_idx` the name of a type `news_status_idx`). The old ones are dropped and new ones
 * built over the current search columns (the title rule now also covers a type titled by a column
 * not called `title`). A database where two types already shared a name gets both rebuilt whole.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const registry = db as Kysely<{ quire_content_types: { table_name: string; columns: string } }>;
  const types = await registry.selectFrom('quire_content_types').select(['table_name', 'columns']).execute();
  for (const type of types) {
    if (!(await engine.schema.hasTable(db, type.table_name))) continue;
    const columns = JSON.parse(type.columns) as ColumnDescriptor[];
    // Only SQLite databases are older than this migration, so only they can hold the old names.
    if (engine.kind === 'sqlite') await dropLegacySearchIndex(db, type.table_name);
    await rebuildContentIndexes(db, engine, type.table_name, columns);
    await engine.searchIndex.ensure(db, type.table_name, searchColumnsOf(columns));
  }
}

/** Drops the search index, pending table and triggers of `table` under their names before 008. */
async function dropLegacySearchIndex(db: Kysely<unknown>, table: string): Promise<void> {
  const index = `quire_search_${table}`;
  for (const event of ['insert', 'update', 'delete']) {
    await sql`drop trigger if exists ${sql.id(`${index}_${event}`)}`.execute(db);
  }
  await sql`drop table if exists ${sql.id(index)}`.execute(db);
  await sql`drop table if exists ${sql.id(`${index}_pending`)}`.execute(db);
}
