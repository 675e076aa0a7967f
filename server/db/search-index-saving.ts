import type { Kysely } from 'kysely';
import { SNAPSHOT_MIN_ROWS } from '../search/search-snapshot-files.js';
import { type QuireDb, SqliteQuireDb } from './database.js';
import { saveSearchIndexNow as saveSqliteIndexNow } from './sqlite/sqlite-memory-search-build.js';

/** Where a command saves search indexes for the next server start, and from what size. */
export interface SearchIndexSaving {
  /** The folder of PostgreSQL's saved indexes (`defaultSearchIndexDir()` for servers on this machine). */
  postgresDir: string;
  minRows?: number | undefined;
}

/**
 * Builds the search index of `table` and saves it for the next server start, when the table has
 * `minRows` rows or more (default SNAPSHOT_MIN_ROWS): after `quire import` or `quire copy`, where
 * the user waits anyway, so that a server started on the database answers its first search without
 * building it. On SQLite beside the file (sqlite-search-snapshot.ts), on PostgreSQL in
 * `postgresDir` (postgres-search-snapshot.ts). Returns whether it was saved.
 */
export async function saveSearchIndexForNextStart(
  database: QuireDb,
  table: string,
  saving: SearchIndexSaving,
): Promise<boolean> {
  const db = database.db as unknown as Kysely<unknown>;
  const minRows = saving.minRows ?? SNAPSHOT_MIN_ROWS;
  if (database instanceof SqliteQuireDb) {
    if (database.file === ':memory:') return false;
    return saveSqliteIndexNow(db, database.runner, database.file, table, minRows);
  }
  // Loaded only here: a SQLite command never pays for the PostgreSQL modules.
  const { saveSearchIndexNow } = await import('./postgres/postgres-search-snapshot.js');
  return saveSearchIndexNow(db, saving.postgresDir, table, minRows);
}

/** One line saying why a command's search index was not saved (what it wrote stays). */
export function notSaved(error: unknown): string {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return `the search index was not saved for the next start (${reason}); a server builds it at its first search`;
}
