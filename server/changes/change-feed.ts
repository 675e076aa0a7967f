/**
 * The change feed's contract: what `GET /api/changes` pages through and `GET /api/events` streams.
 * A change is recorded in the transaction of the write that made it, so the feed holds exactly the
 * committed changes. A cursor is opaque to clients, valid on every server of one database and across
 * restarts, and orders changes the way a reader must see them: a page after a cursor never misses a
 * change committed later with a smaller position (the engines see to that, PostgreSQL's servers
 * committing out of order included).
 */

import type { ChangePage } from '../../common/change-contract.js';
import type { RowChange } from '../content/read-cache.js';

export {
  type ChangeAction,
  type ChangeEntry,
  type ChangePage,
  MEDIA_CHANGE_TYPE,
  seesMediaChanges,
} from '../../common/change-contract.js';

/** What a reader asks for. */
export interface ChangeQuery {
  /** A cursor from a change or a page's `next`; `'0'` starts at the beginning of what is kept. */
  since: string;
  limit: number;
  /** Only these types' changes (a type-limited token's types, or `?types=`); all when absent. */
  types?: readonly string[];
}

/**
 * The feed over one database. `read` throws AppError `cursor_expired` (410) for a cursor older than
 * what is kept and `bad_cursor` (400) for one this database never gave. `subscribe` calls the listener
 * soon after changes commit on this server or, where the database is shared, on another one; the
 * listener then reads from its last cursor, so a missed or merged call loses nothing.
 */
export interface ChangeFeed {
  read(query: ChangeQuery): Promise<ChangePage>;
  /** The cursor of the newest committed change (`'0'` when none is kept). */
  head(): Promise<string>;
  subscribe(listener: () => void): () => void;
}

/**
 * The locales a row change touched, as the feed and build hooks' events name them, stored as JSON
 * text: of a type with localized columns, the locales whose own values the write changed (none for
 * a write of shared fields only); null for any other change, whose entry names no locales.
 */
export function storedLocalesOf(change: Pick<RowChange, 'locales'>): string | null {
  return change.locales ? JSON.stringify(Object.keys(change.locales)) : null;
}
