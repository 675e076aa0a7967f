/**
 * The revisions, trash and content-type change log part of the API contract: the
 * shapes of `/api/cms/:type/:id/revisions...`, `/api/cms/:type/trash...` and
 * `/api/cms-content-changes`. Errors use the one error shape of api-contract.ts.
 */
import type { ContentRow } from './api-contract.js';

/** What a revision records. */
export type RevisionAction = 'create' | 'update' | 'delete' | 'restore';

/** Why a revision was written, in the order the history names them. */
export const REVISION_ORIGINS = ['edit', 'schedule', 'restore', 'import'] as const;

/**
 * Why a revision was written: a person's `edit`, a `schedule`d change firing, a `restore` of a
 * revision or of the trash, or an `import` (`quire import`).
 */
export type RevisionOrigin = (typeof REVISION_ORIGINS)[number];

/** One change of a row, without its snapshot. */
export interface RevisionSummary {
  /** Numbers every revision of the site in the order they were written. */
  id: number;
  action: RevisionAction;
  /** The fields the change set (create) or changed (update, restore); empty for a delete. */
  fields: string[];
  /**
   * Of a type with localized fields: which of them the change set or changed in which locale
   * (locale code -> fields); absent when none did.
   */
  locales?: Record<string, string[]>;
  /** Who made the change (an account's name, or the server's editor name); null when unknown. */
  by: string | null;
  /** When, as a server timestamp (UTC `YYYY-MM-DD HH:MM:SS.ffffff`). */
  at: string;
  /** Why the change was written (a scheduled change's revision names who scheduled it in `by`). */
  origin: RevisionOrigin;
  /** A restore's: when the revision it put back was written (a server timestamp); null otherwise. */
  restored_from: string | null;
}

/** `GET /api/cms/:type/:id/revisions`: newest first. */
export interface RevisionListResponse {
  total: number;
  limit: number;
  offset: number;
  revisions: RevisionSummary[];
}

/** `GET /api/cms/:type/:id/revisions/:rev`: the row as it was after the change (before it, for a delete). */
export interface RevisionResponse {
  revision: RevisionSummary;
  /** The snapshot in the row shape of the type as it is now (relations resolved to their rows now). */
  row: ContentRow;
  /** Fields the snapshot holds that the type no longer has (a restore drops them). */
  dropped: string[];
  /** Whether the row exists now (false: it is deleted, and a restore brings it back). */
  exists: boolean;
}

/** A restore's answer: the row as written, the revision recording it, the fields left behind. */
export interface RestoreResponse {
  row: ContentRow;
  revision: RevisionSummary;
  dropped: string[];
}

/** A deleted row that can still be restored. */
export interface TrashEntry {
  id: string;
  /** The row's title (its title column) when it was deleted, or null. */
  title: string | null;
  deleted_at: string;
  deleted_by: string | null;
  /** When it is purged for good (deleted_at plus the retention). */
  purge_at: string;
  /** The delete's revision (its snapshot is the row as it was). */
  revision: number;
}

/** `GET /api/cms/:type/trash`: the type's deleted rows, most recently deleted first. */
export interface TrashListResponse {
  total: number;
  limit: number;
  offset: number;
  retention_days: number;
  rows: TrashEntry[];
}

/** One content-type change. */
export interface TypeChange {
  id: number;
  /** The type's slug. */
  type: string;
  action: 'create' | 'update' | 'delete';
  /** What changed: title, preview path, columns added, dropped, renamed or changed. */
  detail: TypeChangeDetail;
  by: string | null;
  at: string;
}

/** What a content-type change did (members present only where something changed). */
export interface TypeChangeDetail {
  title?: { from: string | null; to: string | null };
  preview_path?: { from: string | null; to: string | null };
  /** The kind: `collection` or `single`. */
  type?: { from: string; to: string };
  added?: string[];
  dropped?: string[];
  renamed?: { from: string; to: string }[];
  /** Columns whose descriptor changed (label, options, required...). */
  changed?: string[];
  /** Columns whose type changed with their content converted (markdown to richtext and back). */
  converted?: { column: string; from: string; to: string }[];
  /**
   * Values of locales other than the default that columns no longer localized dropped (the
   * default locale's stay in the column): per column and locale, how many rows held one.
   */
  dropped_values?: { column: string; locale: string; count: number }[];
}

/** `GET /api/cms-content-changes[?type=slug]`: newest first. */
export interface TypeChangeListResponse {
  total: number;
  limit: number;
  offset: number;
  changes: TypeChange[];
}
