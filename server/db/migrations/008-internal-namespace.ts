import type { Kysely } from 'kysely';
import { rebuildContentIndexes } from './content-index-steps.js';
import { forEachContentTable, searchColumnsOf } from './content-table-steps.js';
import type { MigrationEngine } from './migration-engine.js';

/**
 * Moves every content table's internal objects into the `quire_` namespace (content-index-steps.ts
 * `internalName`): the search index, its pending table and triggers, and the SQL indexes, which
 * used names a content type could take (`quire_search_news_pending` was also the search index of a
 * type `news_pending`, `news_status_idx` the name of a type `news_status_idx`). The old ones are
 * dropped (only SQLite databases are older than this migration, so the engine step drops them
 * there alone) and new ones built over the current search columns (the title rule also covers a
 * type titled by a column not called `title`). A database where two types already shared a name
 * gets both rebuilt whole.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const engine = migrations['008-internal-namespace'];
  await forEachContentTable(db, engine, async (table, columns) => {
    await engine.dropOlderSearchNames(db, table);
    await rebuildContentIndexes(db, engine, table, columns);
    await engine.ensureSearchIndex(db, table, searchColumnsOf(columns));
  });
}
