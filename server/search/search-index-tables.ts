import { isLocaleColumn } from '../db/queries/internal-names.js';
import type { MemorySearchIndex } from './search-memory-index.js';

/**
 * The key of a table's in-memory index over `columns`, in any order. A table has one index per set
 * of columns searched: the default locale's, and each other locale's searched so far (a locale's
 * columns are its values after fallback: server/locales/locale-search-columns.ts).
 */
export function indexKey(table: string, columns: readonly string[]): string {
  return JSON.stringify([table, ...[...columns].sort()]);
}

/** The table an `indexKey` names. */
export function tableOfKey(key: string): string {
  return (JSON.parse(key) as string[])[0];
}

/**
 * Whether `columns` are the default locale's (no locale column among them): the index a table's
 * first read builds, and the one saved for the next start. An index over another locale's columns
 * is built at that locale's first search and not saved: a start builds it again.
 */
export function defaultLocaleColumns(columns: readonly string[]): boolean {
  return !columns.some(isLocaleColumn);
}

/** The default locale's columns among a table's search columns in every locale, in order. */
export function defaultColumnsAmong(columns: readonly string[]): string[] {
  return columns.filter((column) => !isLocaleColumn(column));
}

/**
 * The in-memory indexes of one set of tables, as an engine keeps them (SQLite: a reading
 * connection's; PostgreSQL: a database's): each index by `indexKey` (table and columns), the build
 * in progress (one per index, shared by the searches that wait for it), and the tables whose first
 * read started one.
 */
export class IndexTables<S, B = void> {
  /** Each index as it answers now, by `indexKey`. */
  readonly tables = new Map<string, S>();
  /** Builds in progress by `indexKey`. */
  readonly builds = new Map<string, Promise<B>>();
  /** Tables whose first read started (or tried) a build, with that start. */
  readonly warmed = new Map<string, Promise<void>>();

  /** The build of index `key` in progress, else the one `start` begins (shared until it ends). */
  buildOf(key: string, start: () => Promise<B>): Promise<B> {
    let build = this.builds.get(key);
    if (!build) {
      const started = start().finally(() => {
        if (this.builds.get(key) === started) this.builds.delete(key);
      });
      build = started;
      this.builds.set(key, build);
    }
    return build;
  }

  /** Whether index `key` is held or being built. */
  busy(key: string): boolean {
    return this.tables.has(key) || this.builds.has(key);
  }

  /** The indexes held of `table` (one per set of columns searched), by key. */
  of(table: string): [string, S][] {
    return [...this.tables].filter(([key]) => tableOfKey(key) === table);
  }

  /**
   * Runs `start` for `table` once, on its first read, later: nothing of it runs inside the read
   * that asked. A failure is left for the next search to meet.
   */
  warm(table: string, start: () => Promise<void>): void {
    if (this.warmed.has(table)) return;
    const started = new Promise<void>((resolve) => setImmediate(resolve).unref()).then(start);
    this.warmed.set(
      table,
      started.catch(() => {}),
    );
  }
}

/** Search columns (the registry's arrays, new on every reload) of tables an index cannot serve. */
export const unindexable = new WeakSet<readonly string[]>();

/**
 * Whether so many rows were written since `index` was built (each is held apart, and every search
 * pays for them) that it should be built again: more than `share` of its rows, plus `min`.
 */
export function worn(index: MemorySearchIndex, share: number, min: number): boolean {
  return index.writtenSinceBuild > index.rows * share + min;
}
