import type { MemorySearchIndex } from './search-memory-index.js';

/**
 * The in-memory indexes of one set of tables, as an engine keeps them (SQLite: a reading
 * connection's; PostgreSQL: a database's): each table's index, the build in progress (one per
 * table, shared by the searches that wait for it), and the tables whose first read started one.
 */
export class IndexTables<S, B = void> {
  /** Each table's index as it answers now. */
  readonly tables = new Map<string, S>();
  /** Builds in progress by table. */
  readonly builds = new Map<string, Promise<B>>();
  /** Tables whose first read started (or tried) a build, with that start. */
  readonly warmed = new Map<string, Promise<void>>();

  /** The build of `table` in progress, else the one `start` begins (shared until it ends). */
  buildOf(table: string, start: () => Promise<B>): Promise<B> {
    let build = this.builds.get(table);
    if (!build) {
      const started = start().finally(() => {
        if (this.builds.get(table) === started) this.builds.delete(table);
      });
      build = started;
      this.builds.set(table, build);
    }
    return build;
  }

  /** Whether `table` has an index or a build under way. */
  busy(table: string): boolean {
    return this.tables.has(table) || this.builds.has(table);
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
