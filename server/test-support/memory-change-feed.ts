import type { ChangeEntry, ChangeFeed, ChangePage, ChangeQuery } from '../changes/change-feed.js';
import { AppError } from '../errors/app-error.js';

/**
 * A change feed in memory for tests of what is built on the feed: cursors are positions, cursors
 * before `keptFrom` are expired, `reads` records each read, `failNext` makes the next read throw.
 */
export class MemoryChangeFeed implements ChangeFeed {
  entries: ChangeEntry[] = [];
  reads: ChangeQuery[] = [];
  keptFrom = 0;
  failNext: unknown = null;
  private listeners = new Set<() => void>();

  add(type: string, id: string, notify = true): ChangeEntry {
    const entry: ChangeEntry = {
      cursor: String(this.entries.length + 1),
      type,
      id,
      action: 'update',
      at: new Date(0).toISOString(),
      by: null,
    };
    this.entries.push(entry);
    if (notify) for (const listener of this.listeners) listener();
    return entry;
  }

  async read(query: ChangeQuery): Promise<ChangePage> {
    this.reads.push(query);
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = null;
      throw error;
    }
    const since = Number(query.since);
    if (!/^\d+$/.test(query.since) || since > this.entries.length) throw new AppError('bad_request', 'bad cursor');
    if (since < this.keptFrom) throw expiredCursor();
    const changes = this.entries
      .slice(since, since + query.limit)
      .filter((entry) => !query.types || query.types.includes(entry.type));
    return { changes, next: changes.at(-1)?.cursor ?? query.since };
  }

  /** Runs once the next `head` has its answer and before it returns it (a commit racing a reader). */
  afterHead: (() => void) | null = null;

  async head(): Promise<string> {
    const head = String(this.entries.length);
    const after = this.afterHead;
    this.afterHead = null;
    after?.();
    return head;
  }

  /** Subscribers now. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The feed's 410 for a cursor older than what is kept. */
export function expiredCursor(): AppError {
  const error = new AppError('bad_request', 'That cursor is older than what is kept: read everything again');
  Object.defineProperty(error, 'status', { value: 410 });
  return error;
}
