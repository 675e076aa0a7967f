import type { Kysely } from 'kysely';
import { timestampNow } from '../../common/datetime-syntax.js';
import type { RowScope, WriteLog, WriteObserver } from '../content/content-writes.js';
import type { DatabaseEngine } from '../db/engine.js';
import {
  before,
  type ChangePosition,
  ChangeRepository,
  type ChangeRow,
  type NewChange,
} from '../db/repositories/change-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import { badCursor, cursorOf, positionOf, START_CURSOR } from './change-cursor.js';
import {
  type ChangeAction,
  type ChangeEntry,
  type ChangeFeed,
  type ChangePage,
  type ChangeQuery,
  MEDIA_CHANGE_TYPE,
  storedLocalesOf,
} from './change-feed.js';

/** Days a change is kept by default (`--changes-days`, QUIRE_CHANGES_DAYS). */
export const DEFAULT_CHANGES_DAYS = 30;

/** Most changes one page gives, and how many when none is asked for. */
export const MAX_CHANGES_PAGE = 1000;
export const DEFAULT_CHANGES_PAGE = 100;

/** How often changes older than the retention are purged while the server runs. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** How the change feed is kept. */
export interface ChangeFeedOptions {
  /** Days a change is kept before the purge removes it. */
  days?: number;
  /** The clock changes are stamped and purged by (tests move it). */
  now?: () => Date;
  /**
   * How often, while someone subscribes, the newest change is looked for, ms (default 500): it
   * brings other servers' changes and content-type changes to subscribers.
   */
  pollMs?: number;
}

/** Where the feed is kept, and how. */
export interface ChangeFeedServiceOptions extends ChangeFeedOptions {
  db: Kysely<QuireDatabase>;
  engine: DatabaseEngine;
  /**
   * Whether an observer after the feed's reads the cursors of a write to `table` (`cursorsOf`):
   * only then are the positions read back, which on PostgreSQL costs the write a round trip.
   */
  wantsCursors?: (table: string) => boolean;
}

/**
 * The durable change feed (see change-feed.ts). Row writes record their changes through `onWrite`,
 * a ContentWrites observer, and content-type changes through `recordTypeChange`, each in the
 * write's own transaction, so the feed holds exactly what committed. The purge (on start, then
 * hourly) removes changes older than the retention and remembers where it stopped, so a cursor
 * from before that is answered `cursor_expired`.
 */
export class ChangeFeedService implements ChangeFeed {
  readonly days: number;
  private readonly db: Kysely<QuireDatabase>;
  private readonly engine: DatabaseEngine;
  private readonly now: () => Date;
  private readonly pollMs: number;
  private readonly wantsCursors: (table: string) => boolean;
  /** The cursors of each row write's changes, by the write's log, for the observers after this one. */
  private readonly cursors = new WeakMap<WriteLog, (string | undefined)[]>();
  private readonly listeners = new Set<() => void>();
  private poller: NodeJS.Timeout | null = null;
  private lastHead: string | null = null;
  private purgeTimer: NodeJS.Timeout | null = null;

  constructor(options: ChangeFeedServiceOptions) {
    this.db = options.db;
    this.engine = options.engine;
    this.days = options.days ?? DEFAULT_CHANGES_DAYS;
    this.now = options.now ?? (() => new Date());
    this.pollMs = options.pollMs ?? 500;
    this.wantsCursors = options.wantsCursors ?? (() => true);
  }

  /** The ContentWrites observer: records a write's changes in its transaction. */
  readonly onWrite: WriteObserver = (trx, scope, log) => this.recordRows(trx, scope, log);

  /**
   * The cursors of a row write's changes, index for index with its `log.changes` (undefined for an
   * entry that changed no row), once this observer has run: build hooks' events carry them.
   */
  cursorsOf(log: WriteLog): readonly (string | undefined)[] {
    return this.cursors.get(log) ?? [];
  }

  async read(query: ChangeQuery): Promise<ChangePage> {
    const after = positionOf(query.since);
    const limit = Math.min(Math.max(Math.trunc(query.limit), 1), MAX_CHANGES_PAGE);
    const repository = this.repository(this.db);
    const rows = await repository.read(after, query.types ?? null, limit);
    // Read after the rows: a purge that ran meanwhile shows here, so no page skips what it removed.
    const purged = await repository.purged();
    if (query.since !== START_CURSOR && before(after, purged)) {
      throw new AppError(
        'cursor_expired',
        `This cursor is older than the changes kept (${this.days} days): read everything again, then follow the feed from since=0 or its head`,
      );
    }
    if (rows.length === 0 && query.since !== START_CURSOR) await this.refuseUnknown(repository, after, purged);
    return {
      changes: rows.map(entryOf),
      next: rows.length > 0 ? cursorOf(rows[rows.length - 1]) : query.since,
    };
  }

  async head(): Promise<string> {
    const newest = await this.repository(this.db).newest();
    return newest ? cursorOf(newest) : START_CURSOR;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.poller) {
      this.poller = setInterval(() => void this.poll(), this.pollMs);
      this.poller.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.poller) {
        clearInterval(this.poller);
        this.poller = null;
        this.lastHead = null;
      }
    };
  }

  /**
   * Records an upload kept at `path` (`/media/...`, as rows name it) as a `media` change. Uploads are kept outside
   * any transaction of rows (a file beside SQLite, the store's own on PostgreSQL), so this runs right
   * after, in a small transaction of its own: the feed stays gapless, cursors being given at insert.
   */
  async recordMedia(path: string, by: string | null): Promise<void> {
    const change = {
      table: MEDIA_CHANGE_TYPE,
      ids: [path],
      action: 'media' as const,
      by,
      at: timestampNow(this.now()),
    };
    await this.db.transaction().execute((trx) => appendEach(trx, this.engine, change));
    this.notify();
  }

  /** Removes the changes older than the retention; how many went. */
  async purge(): Promise<number> {
    const keepSince = timestampNow(new Date(this.now().getTime() - this.days * DAY_MS));
    return this.db.transaction().execute((trx) => this.repository(trx).purgeBefore(keepSince));
  }

  /** Purges now, then every hour until `stop`; a failed purge is reported and tried again next time. */
  async start(log: (message: string, error: unknown) => void): Promise<void> {
    const run = () => this.purge().catch((error) => log('Purging the change feed failed:', error));
    await run();
    this.purgeTimer = setInterval(run, PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  stop(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    this.purgeTimer = null;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    this.listeners.clear();
  }

  private async recordRows(trx: Kysely<QuireDatabase>, scope: RowScope, log: WriteLog): Promise<void> {
    const at = timestampNow(this.now());
    const changes: NewChange[] = [];
    const indexes: number[] = [];
    log.changes.forEach((change, index) => {
      const { before: previous, after } = change;
      const row = after ?? previous;
      if (!row) return;
      const action: ChangeAction =
        after === null ? 'delete' : scope.restore ? 'restore' : previous === null ? 'create' : 'update';
      changes.push({
        at,
        table_name: scope.type.table,
        row_id: String(row.id),
        action,
        changed_by: scope.by ?? null,
        locales: storedLocalesOf(change),
      });
      indexes.push(index);
    });
    if (changes.length > 0) log.whenKept.push(() => this.notify());
    if (!this.wantsCursors(scope.type.table)) {
      await this.repository(trx).appendLater(changes);
      return;
    }
    const positions = await this.repository(trx).append(changes);
    const cursors: (string | undefined)[] = [];
    positions.forEach((position, n) => {
      cursors[indexes[n]] = cursorOf(position);
    });
    this.cursors.set(log, cursors);
  }

  /** A cursor past every change this database has given (and not a purged one): `bad_cursor`. */
  private async refuseUnknown(repository: ChangeRepository, after: ChangePosition, purged: ChangePosition) {
    const newest = await repository.newest(false);
    const last = newest && before(purged, newest) ? newest : purged;
    if (before(last, after)) throw badCursor();
  }

  /** Tells subscribers now (a write of this server committed). */
  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // One subscriber's failure is its own; the others still hear.
      }
    }
  }

  /** Tells subscribers when the newest change moved (another server's write, a content-type change). */
  private async poll(): Promise<void> {
    try {
      const head = await this.head();
      // The first look tells too: a subscriber's cursor may predate a change that committed
      // elsewhere before this look, and a call with nothing new costs the subscriber one read.
      const moved = head !== this.lastHead;
      this.lastHead = head;
      if (moved) this.notify();
    } catch {
      // The database is away for now: the next look tries again.
    }
  }

  private repository(db: Kysely<QuireDatabase>): ChangeRepository {
    return new ChangeRepository(db, this.engine);
  }
}

/**
 * Records a content-type change (`table` created, changed or dropped) in the change's transaction;
 * subscribers hear of it at their next look for the newest change.
 */
export async function recordTypeChangeInFeed(
  trx: Kysely<QuireDatabase>,
  engine: DatabaseEngine,
  table: string,
  by: string | null,
): Promise<void> {
  await new ChangeRepository(trx, engine).append([
    { at: timestampNow(), table_name: table, row_id: table, action: 'type_change', changed_by: by, locales: null },
  ]);
}

/**
 * Records the rows an import wrote as created, one change each, in `trx`: the caller's transaction
 * that records their revisions once the import has committed (see `importRows`). Servers' subscribers
 * hear of them at their next look for the newest change.
 */
export async function recordImportedInFeed(
  trx: Kysely<QuireDatabase>,
  engine: DatabaseEngine,
  table: string,
  rowIds: readonly string[],
  options: { by: string | null; at: string },
): Promise<void> {
  await appendEach(trx, engine, { ...options, table, ids: rowIds, action: 'create' });
}

/**
 * Records uploads `quire media prune` deleted, by their paths (`/media/...`), as `delete` changes
 * of type `media`, in one transaction right after the files are gone: the files are outside any
 * transaction (a folder beside SQLite, the prune's own on PostgreSQL).
 */
export async function recordMediaRemovedInFeed(
  db: Kysely<QuireDatabase>,
  engine: DatabaseEngine,
  paths: readonly string[],
): Promise<void> {
  if (paths.length === 0) return;
  const change = { table: MEDIA_CHANGE_TYPE, ids: paths, action: 'delete' as const, by: null, at: timestampNow() };
  await db.transaction().execute((trx) => appendEach(trx, engine, change));
}

/** One change of `action` for each of `ids`, in the order given. */
async function appendEach(
  trx: Kysely<QuireDatabase>,
  engine: DatabaseEngine,
  change: { table: string; ids: readonly string[]; action: ChangeAction; by: string | null; at: string },
): Promise<void> {
  await new ChangeRepository(trx, engine).append(
    change.ids.map((id) => ({
      at: change.at,
      table_name: change.table,
      row_id: id,
      action: change.action,
      changed_by: change.by,
      locales: null,
    })),
  );
}

/** A stored change as the feed answers it. */
function entryOf(row: ChangeRow): ChangeEntry {
  const entry: ChangeEntry = {
    cursor: cursorOf(row),
    type: row.table_name,
    id: row.row_id,
    action: row.action as ChangeAction,
    at: isoOf(row.at),
    by: row.changed_by,
  };
  if (row.locales !== null) entry.locales = JSON.parse(row.locales) as string[];
  return entry;
}

/** A server timestamp (`YYYY-MM-DD HH:MM:SS.ffffff`, UTC) as ISO 8601 with milliseconds. */
function isoOf(timestamp: string): string {
  return `${timestamp.slice(0, 23).replace(' ', 'T')}Z`;
}
