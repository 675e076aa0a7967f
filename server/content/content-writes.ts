import type { Kysely } from 'kysely';
import type { QuireDatabase } from '../db/schema.js';
import type { StatementRunner } from '../db/statement-runner.js';
import type { ContentType } from './content-type.js';
import { ReadCache, type RowChange } from './read-cache.js';

/** What a write changes: one type's rows (a create only adds), or the content types themselves. */
export type WriteScope = { type: ContentType; onlyAdds: boolean } | { schema: true };

/** What a running write reports back: the rows it changed, and work to run once it has committed. */
export interface WriteLog {
  /** Rows the write changed, in order (row writes only). */
  changes: RowChange[];
  /** The read cache's gap token when a create began (see ReadCache.rememberSlug); undefined otherwise. */
  gapToken: number | undefined;
  /** Run once the transaction has committed. */
  afterCommit: (() => void)[];
}

/**
 * The one way content tables change. Every write (rows, search-index batches, content types and
 * their migrations) runs in one transaction here, and the read cache hears of it before the
 * transaction starts and after it ends: while a write holds the connection, reads wait their turn
 * through Kysely instead of running prepared statements on it mid-transaction, and nothing the
 * cache keeps outlives a change it did not follow (a content-type change empties it).
 */
export class ContentWrites {
  /** Exact counts and pages kept between writes; null without a statement runner (no direct reads). */
  readonly cache: ReadCache | null;

  constructor(
    private readonly db: Kysely<QuireDatabase>,
    runner?: StatementRunner,
  ) {
    this.cache = runner ? new ReadCache(() => runner.externalChangeToken()) : null;
  }

  /** The content-type change under way (they run one at a time), or null. */
  private schemaChanging: Promise<unknown> | null = null;

  /**
   * Runs a content-type change (validation, migration, registry reload) while no other runs. Its
   * transaction goes through `run` like every write; callers that resolve a content type by name
   * wait for `settled()` first, so none plans against a type that is being changed.
   */
  changeSchema<T>(operation: () => Promise<T>): Promise<T> {
    const previous = this.schemaChanging ?? Promise.resolve();
    const current = previous.then(operation, operation);
    const tracked = current.then(
      () => undefined,
      () => undefined,
    );
    this.schemaChanging = tracked;
    void tracked.then(() => {
      if (this.schemaChanging === tracked) this.schemaChanging = null;
    });
    return current;
  }

  /** A promise to wait for before resolving a content type by name, or null when none is changing. */
  settled(): Promise<unknown> | null {
    return this.schemaChanging;
  }

  /** Whether a write holds the connection now (reads must then queue through Kysely). */
  get writing(): boolean {
    if (!this.cache) return true;
    this.cache.sync();
    return this.cache.writing;
  }

  /** Runs `work` in one transaction; the read cache follows what it changed, or forgets on failure. */
  async run<T>(scope: WriteScope, work: (trx: Kysely<QuireDatabase>, log: WriteLog) => Promise<T>): Promise<T> {
    const cache = this.cache;
    const rows = 'type' in scope ? scope : null;
    const log: WriteLog = {
      changes: [],
      gapToken: rows?.onlyAdds ? cache?.gapToken : undefined,
      afterCommit: [],
    };
    if (rows) cache?.beginWrite(rows.type, rows.onlyAdds);
    else cache?.beginWrite(SCHEMA, false);
    let committed = false;
    try {
      const result = await this.db.transaction().execute((trx) => work(trx, log));
      committed = true;
      return result;
    } finally {
      if (rows) {
        cache?.endWrite(rows.type, rows.onlyAdds, committed ? log.changes : null);
      } else {
        cache?.endWrite(SCHEMA, false, null);
        // Types are rebuilt from the registry after a schema change; everything kept is stale.
        cache?.clear();
      }
      if (committed) for (const then of log.afterCommit) then();
    }
  }
}

/** The read cache's key for "the content types themselves" (no type's entries). */
const SCHEMA = {};
