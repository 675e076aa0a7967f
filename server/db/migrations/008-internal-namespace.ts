import { type Kysely, sql } from 'kysely';
import { searchColumnsOf } from '../../../common/title-rules.js';
import type { DatabaseEngine } from '../engine.js';
import { rebuildContentIndexes } from '../repositories/content-schema-repository.js';
import { forEachContentTable } from './content-table-steps.js';

/**
 * Moves every content table's internal objects into the `quire_` namespace (see `internal-names.ts`):
 * the search index, its pending table and triggers, and the SQL indexes, which used names a content
 * type could take (`quire_search_news_pending` was also the search index of a type `news_pending`,
 * `news_status_idx` the name of a type `news_status_idx`). The old ones are dropped and new ones
 * built over the current search columns (the title rule now also covers a type titled by a column
 * not called `title`). A database where two types already shared a name gets both rebuilt whole.
 */
export async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  await forEachContentTable(db, engine, async (table, columns) => {
    // Only SQLite databases are older than this migration, so only they can hold the old names.
    if (engine.kind === 'sqlite') await dropLegacySearchIndex(db, table);
    await rebuildContentIndexes(db, engine, table, columns);
    await engine.searchIndex.ensure(db, table, searchColumnsOf(columns));
  });
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
