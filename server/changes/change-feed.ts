/**
 * The change feed's contract: what `GET /api/changes` pages through and `GET /api/events` streams.
 * A change is recorded in the transaction of the write that made it, so the feed holds exactly the
 * committed changes. A cursor is opaque to clients, valid on every server of one database and across
 * restarts, and orders changes the way a reader must see them: a page after a cursor never misses a
 * change committed later with a smaller position (the engines see to that, PostgreSQL's servers
 * committing out of order included).
 */

/** What a change did. */
export type ChangeAction = 'create' | 'update' | 'delete' | 'restore' | 'type_change' | 'media';

/**
 * The `type` of a media change: an upload kept at the path its `id` gives. `media` is a reserved
 * table name, so no content type has it.
 */
export const MEDIA_CHANGE_TYPE = 'media';

/**
 * Whether a credential with this type limit sees media changes: only one without a limit, since an
 * upload belongs to no content type and may serve any.
 */
export function seesMediaChanges(limit: readonly string[] | null): boolean {
  return limit === null;
}

/** One committed change, as the feed and the event stream answer it. */
export interface ChangeEntry {
  /** Opaque; pass it back as `since` (or `Last-Event-ID`) to read what came after. */
  cursor: string;
  /** The content type's table (its name in the API); `media` (MEDIA_CHANGE_TYPE) for an upload kept or pruned. */
  type: string;
  /** The row's id; for `type_change`, the type's table again; of type `media`, the upload's path (`/media/...`). */
  id: string;
  action: ChangeAction;
  /** ISO 8601, when the write committed. */
  at: string;
  /** Who wrote: an account's name, a token's label, or null (the command line, a schedule). */
  by: string | null;
  /** The locales the write touched, where content is localized; absent otherwise. */
  locales?: string[];
}

/** One page of the feed. */
export interface ChangePage {
  changes: ChangeEntry[];
  /** Where the next page starts: the last change's cursor, or `since` again when there was none. */
  next: string;
}

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
