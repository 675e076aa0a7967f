import type { Kysely } from 'kysely';
import { searchTextColumnName } from './content-index-steps.js';
import { forEachContentTable } from './content-table-steps.js';
import type { MigrationEngine } from './migration-engine.js';

/** The column types whose text search covers through a text column beside theirs. */
const BODY_TYPES: ReadonlySet<string> = new Set(['richtext', 'blocks']);

/**
 * Search covers the text of rich text and blocks columns: each such column of every content table
 * gets its search text column, empty. Filling them needs what today's field types derive from a
 * value, which a frozen migration cannot hold: the server that ran this migration fills them and
 * makes the search index again right after (search-text-columns.ts, `fillMissingSearchTexts`).
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const engine = migrations['035-search-text-columns'];
  await forEachContentTable(db, engine, async (table, columns) => {
    for (const column of columns) {
      if (!BODY_TYPES.has(column.type)) continue;
      await db.schema
        .alterTable(table)
        .addColumn(searchTextColumnName(column.name), engine.columnType('text'))
        .execute();
    }
  });
}
