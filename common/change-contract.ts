/**
 * The change feed on the wire: what `GET /api/changes` pages through and `GET /api/events` streams,
 * for the server, the editor and site builders alike. A cursor is opaque to clients, valid on every
 * server of one database and across restarts.
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
