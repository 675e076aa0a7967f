import type { DatabaseEngine } from '../db/engine.js';
import { ContentRepository } from '../db/repositories/content-repository.js';
import type { StatementRunner } from '../db/statement-runner.js';
import type { ContentType } from './content-type.js';
import type { ContentWrites } from './content-writes.js';

/** How long written rows wait before they are moved into the search index in one batch. */
const SEARCH_FLUSH_DELAY_MS = 500;

/**
 * Moves rows written lately into the search indexes, in one batch for all of them shortly after
 * the writes (each type in one transaction, through the one write path). Until then searches
 * check those rows one by one: they give the same rows before and after.
 */
export class SearchFlushes {
  /** Types with rows waiting for the search index, and the timer that will move them. */
  private readonly waiting = new Set<ContentType>();
  private timer: NodeJS.Timeout | null = null;

  private readonly writes: ContentWrites;
  private readonly engine: DatabaseEngine;
  private readonly runner: StatementRunner | undefined;

  constructor(options: { writes: ContentWrites; engine: DatabaseEngine; runner?: StatementRunner }) {
    this.writes = options.writes;
    this.engine = options.engine;
    this.runner = options.runner;
  }

  /** Moves the rows `type` had written into its search index soon (a write committed). */
  schedule(type: ContentType): void {
    if (type.searchColumns.length === 0 || !this.engine.searchIndex.flushes) return;
    this.waiting.add(type);
    this.timer ??= setTimeout(() => void this.flush(), SEARCH_FLUSH_DELAY_MS);
    this.timer.unref?.();
  }

  /**
   * Runs the flush due, now (a server stopping: its saved search indexes must come after the last
   * flush, which empties the pending tables and with them the saved indexes' markers).
   */
  async flushNow(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
  }

  /** Moves rows written since the last flush into the search indexes (each type in one transaction). */
  async flush(): Promise<void> {
    this.timer = null;
    const types = [...this.waiting];
    this.waiting.clear();
    for (const type of types) {
      try {
        // Rows only move into the index: a write that adds nothing and changes no counts.
        await this.writes.run({ type, onlyAdds: true }, (trx) =>
          new ContentRepository({ db: trx, engine: this.engine, runner: this.runner }).flushSearchIndex(
            type.table,
            type.searchColumns,
          ),
        );
      } catch {
        // The rows stay pending (still found, one by one); the next write schedules another flush.
        // (Also the way out when the database was closed meanwhile.)
      }
    }
  }
}
