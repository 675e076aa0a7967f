import type { Kysely } from 'kysely';
import type { StatementRunner } from '../db/statement-runner.js';
import type { SearchIndexEngine } from './search-engine.js';
import { SNAPSHOT_MIN_ROWS } from './search-snapshot-files.js';

/** Where a command saves search indexes for the next server start, and from what size. */
export interface SearchIndexSaving {
  /**
   * The folder of saved indexes, for an engine that keeps them apart from the database
   * (`defaultSearchIndexDir()` for servers on this machine).
   */
  folder: string;
  minRows?: number | undefined;
}

/** An open database as saving its search indexes needs it. */
export interface SearchedDatabase {
  /** Its Kysely (of whatever tables). */
  readonly db: unknown;
  readonly runner?: StatementRunner | undefined;
  readonly engine: { readonly searchIndex: SearchIndexEngine };
  /** The database's file, for an engine that saves its indexes beside it. */
  readonly file?: string | null | undefined;
}

/**
 * Builds the search index of `table` and saves it for the next server start, when the table has
 * `minRows` rows or more (default SNAPSHOT_MIN_ROWS): after `quire import` or `quire copy`, where
 * the user waits anyway, so that a server started on the database answers its first search without
 * building it. Where the engine keeps it is the engine's (`SavedSearchIndexes.saveIndexNow`).
 * Returns whether it was saved.
 */
export function saveSearchIndexForNextStart(
  database: SearchedDatabase,
  table: string,
  saving: SearchIndexSaving,
): Promise<boolean> {
  const saved = database.engine.searchIndex.memory?.saved;
  if (!saved) return Promise.resolve(false);
  return saved.saveIndexNow(database.db as Kysely<unknown>, database.runner, table, {
    file: database.file ?? null,
    folder: saving.folder,
    minRows: saving.minRows ?? SNAPSHOT_MIN_ROWS,
  });
}

/** One line saying why a command's search index was not saved (what it wrote stays). */
export function notSaved(error: unknown): string {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return `the search index was not saved for the next start (${reason}); a server builds it at its first search`;
}
