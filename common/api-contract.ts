/**
 * The API contract: every request and response shape and every error code of Quire's HTTP API.
 *
 * This module is the single source of truth shared by the server, the editor (renderer) and the
 * Electron shell. Like all of `common/`, it has no Node, DOM or package imports (lint and
 * `common/tsconfig.json` check that).
 */
import type { EditorLanguage } from './editor-language-rules.js';
import type { FieldCondition } from './field-conditions.js';
import type { FieldProblem } from './field-problems.js';
import type { TwoFactorStatus } from './two-factor-contract.js';

/** Column types a descriptor may name; the server has one field implementation per value. */
export type ColumnType =
  | 'text'
  | 'slug'
  | 'select'
  | 'datetime'
  | 'textarea'
  | 'markdown'
  | 'richtext'
  | 'number'
  | 'boolean'
  | 'date'
  | 'image'
  | 'tags'
  | 'relation'
  | 'blocks';

/** One choice of a `select` column. */
export interface SelectOption {
  id: string;
  text: string;
}

/** Element of a content type's `columns` array: drives validation, storage and the editor widget. */
export interface ColumnDescriptor {
  name: string;
  label: string;
  type: ColumnType;
  required: boolean;
  /** For `slug`: the column the slug is derived from. */
  parent?: string;
  /** For `select`: the allowed values and their display text. */
  options?: SelectOption[];
  /** For `relation`: the slug of the content type whose rows it points at. */
  target?: string;
  /**
   * When the column is shown in the editor and required: while the column `field` is one of `is`,
   * none of `isNot`, empty or not (common/field-conditions.ts). Hidden, its value is kept.
   */
  when?: FieldCondition;
  /**
   * For `blocks`: the kinds of block a value may hold (at least one, names listed once). Block
   * types' columns are descriptors like a row's (any type but `slug`; `blocks` again up to three
   * levels deep; not named `type` or `id`).
   */
  blocks?: BlockType[];
  /**
   * The column holds one value per locale of the site (`LOCALIZABLE_COLUMN_TYPES` only); the
   * others are shared by every locale. Reads resolve it along the asked locale's fallback chain.
   */
  localized?: boolean;
}

/** A column descriptor's member. */
export type ColumnDescriptorKey = keyof ColumnDescriptor;

/** Every member of ColumnDescriptor once: a member added there fails to compile until listed here. */
const DESCRIPTOR_MEMBERS: Record<ColumnDescriptorKey, true> = {
  name: true,
  label: true,
  type: true,
  required: true,
  parent: true,
  options: true,
  target: true,
  when: true,
  blocks: true,
  localized: true,
};

/** The members a column descriptor may have (what a content-type write accepts and the type editor marks). */
export const COLUMN_DESCRIPTOR_KEYS = Object.keys(DESCRIPTOR_MEMBERS) as readonly ColumnDescriptorKey[];

/** One kind of block a `blocks` column offers: its name (a value's `type`), label and own columns. */
export interface BlockType {
  name: string;
  label: string;
  columns: ColumnDescriptor[];
}

/**
 * One block of a `blocks` value: its type's name, an id unique in the value (the server gives one
 * to a block written without), and one member per column of its type, read like a row's column.
 */
export interface BlockValue {
  type: string;
  id: string;
  [column: string]: ColumnValue;
}

/**
 * A column as the server publishes it: the descriptor plus what the server derives from its type,
 * so clients never recompute the rules. Sent back in a content-type write, the derived members are
 * ignored when unchanged and refused when changed (they cannot be set).
 */
export interface PublishedColumn extends ColumnDescriptor {
  /** Whether `filter=<name>=<value>` is accepted for the column. */
  filterable: boolean;
  /** Whether `order=<name>` is accepted for the column. */
  orderable: boolean;
}

/**
 * How a `relation` column reads: the target row's id, its title (the value of its type's
 * `title_column`) and its slug (its first slug column).
 */
export interface RelationValue {
  id: string;
  title: string | null;
  slug: string | null;
}

/** SEO data of a row; every member is a string when the object is present. */
export interface SeoMeta {
  title: string;
  description: string;
  keywords: string;
}

/** Fields every row has, whatever its content type. */
export interface SystemFields {
  id: string;
  meta: SeoMeta | null;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
}

/** Names of the fields the server sets itself; sent in a write body they are ignored. */
export const SYSTEM_FIELDS = ['id', 'created_at', 'updated_at', 'created_by', 'updated_by'] as const;

/** A value of a content column as it appears in JSON. */
export type ColumnValue = string | number | boolean | null | string[] | RelationValue | BlockValue[];

/** A content row: system fields plus one member per content column. */
export type ContentRow = SystemFields & { [column: string]: ColumnValue | SeoMeta };

/** Milliseconds spent in each phase of a read, also sent as a `Server-Timing` header. */
export interface Timing {
  total: number;
  init: number;
  filter: number;
  data: number;
  count: number;
  format: number;
}

/**
 * A content type's kind: `collection` (a list of rows) or `single` (exactly one row, such as site
 * settings: `GET /api/cms/:type` answers it and `PUT` changes it; rows are never created by POST or deleted).
 */
export type ContentTypeKind = 'collection' | 'single';

/** A content type as listed by `GET /api/cms-content` (no rows). */
export interface ContentTypeSummary {
  content_type_id: string;
  type: ContentTypeKind;
  table: string;
  title: string;
  status: string;
  slug: string;
  columns: PublishedColumn[];
  custom: boolean;
  preview_path: string | null;
  /** The column whose value is a row's title (see `titleColumnOf`), or null when the type has none. */
  title_column: string | null;
  /** The columns `filter=search=` looks in (empty: the type cannot be searched). */
  search_columns: string[];
  /**
   * The type's version, the ETag its change and delete take as `If-Match`: the API's list entries
   * carry it (a write answers it as its ETag header; an export's copy of the list leaves it out).
   */
  version?: string;
}

/** `GET /api/cms-content` */
export interface ContentTypeListResponse {
  count: number;
  content_types: ContentTypeSummary[];
}

/** `GET /api/cms-content/:slug`: the type's description (the spec names no `preview_path` here) and its rows. */
export type ContentTypeResponse = Omit<ContentTypeSummary, 'preview_path'> & { rows: ContentRow[] };

/** `GET /api/cms/:type` */
export interface ListResponse {
  time: Timing;
  /** All rows of the type. */
  total: number;
  /** Rows matching the filters. */
  filtered: number;
  /** Rows in `rows`. */
  count: number;
  pk: 'id';
  rows: ContentRow[];
  columns: PublishedColumn[];
  filters: never[];
  preview_path: string | null;
  custom: boolean;
}

/** `GET /api/cms/:type/:id`: the list shape with one row, plus the page's resolved SEO meta. */
export interface GetRowResponse extends ListResponse {
  meta: SeoMeta;
}

/** `POST /api/cms/:type/:id?` (201) */
export interface CreateRowResponse {
  id: string;
  rows: ContentRow[];
}

/** `PUT /api/cms/:type/:id`: the updated row itself. */
export type UpdateRowResponse = ContentRow;

/** `DELETE /api/cms/:type/:id`: the deleted row plus `rowCount`. */
export type DeleteRowResponse = ContentRow & { rowCount: number };

/** Media types an upload may have; decided from the file's first bytes, never from its name. */
export type UploadMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif' | 'image/svg+xml';

/**
 * `POST /api/uploads` (201, multipart/form-data with one file part named `file`): where the file
 * is served, the value an `image` column stores.
 */
export interface UploadResponse {
  /** `/media/YYYY/MM/<uuidv7>.<ext>`, served by the same server. */
  path: string;
  type: UploadMediaType;
  /** Bytes. */
  size: number;
  /** Pixels, when the header tells (not for AVIF). */
  width?: number;
  height?: number;
}

/**
 * `GET /api/media/unused`: the uploads no row names (and that were not uploaded in the last hour),
 * which `quire media prune` would delete.
 */
export interface UnusedMediaResponse {
  /** How many files. */
  count: number;
  /** Their size in bytes. */
  bytes: number;
}

/** Query parameters of the list endpoints (all optional). */
export interface ListQuery {
  /** `field=value` or `search=keyword`; repeatable, combined with AND. */
  filter?: string | string[];
  limit?: number;
  offset?: number;
  order?: string;
  desc?: boolean;
}

/** A write body: column values, SEO meta (nested or flat), unknown names are refused. */
export type WriteBody = Record<string, unknown>;

/** Machine-readable error codes, one per kind of failure. */
export type ErrorCode =
  | 'bad_request'
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'misdirected_request'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'internal_error'
  | 'database_unavailable'
  | 'too_many_requests'
  | 'two_factor_enrolment_required'
  | 'bad_cursor'
  | 'cursor_expired'
  | 'stale_write'
  | 'single_row_type';

/** The one JSON shape of every failed request. */
export interface ErrorBody {
  error: {
    status: number;
    code: ErrorCode;
    message: string;
    /** Per-field problems as sentences (`{ "title": "is required" }`), for people. */
    fields?: Record<string, string>;
    /** The same problems as data: a code and its parameters per field, for programs. */
    problems?: Record<string, FieldProblem>;
    /** What is wrong with the request as a whole, as data (`{ "code": "too_large", "limit": 10485760 }`). */
    detail?: FieldProblem;
    /** For a refused delete: the rows that still point at the row (at most 20 are named). */
    references?: RowReference[];
    /** For a refused delete: how many more rows point at it from content types the caller may not read (never named). */
    other_references?: number;
    /** For `stale_write`: what is stored now, as its read answers it (null: it no longer exists). */
    current?: unknown;
    /** For `stale_write`: the ETag of `current` (send it in `If-Match` to write over it), or null. */
    etag?: string | null;
    /** For `stale_write`: the last recorded change of what is stored, or null when none is recorded. */
    last_change?: LastChange | null;
  };
}

/** Who last changed a row or a content type, when, and which fields (a `stale_write` names it). */
export interface LastChange {
  /** `create`, `update`, `delete` or `restore` for a row; `create`, `update` or `delete` for a type. */
  action: string;
  /** An account's name or the server's editor name; null when unknown. */
  by: string | null;
  /** A server timestamp (UTC `YYYY-MM-DD HH:MM:SS.ffffff`). */
  at: string;
  /** The fields it set or changed (empty for a delete). */
  fields: string[];
}

/** A row that points at another through a relation column. */
export interface RowReference {
  table: string;
  id: string;
  title: string | null;
  column: string;
}

/** `POST /api/cms-content`: a new content type. `slug` and `table` default from the title. */
export interface CreateContentTypeRequest {
  title: string;
  slug?: string;
  table?: string;
  /** Left out: `collection`. */
  type?: ContentTypeKind;
  columns: ColumnDescriptor[];
  preview_path?: string | null;
}

/**
 * A column in `PUT /api/cms-content/:slug`. The new list replaces the old one: columns matched by
 * `from` (a rename) or by `name` keep their data; listed columns that are new are added; existing
 * columns left out are removed with their data.
 */
export type ColumnChange = ColumnDescriptor & { from?: string };

/** `PUT /api/cms-content/:slug`: what to change; anything left out stays as it is. */
export interface UpdateContentTypeRequest {
  title?: string;
  /** A collection holding more than one row cannot become `single` (409 `single_row_type`). */
  type?: ContentTypeKind;
  columns?: ColumnChange[];
  preview_path?: string | null;
}

/** `POST`, `PUT`, `DELETE /api/cms-content[/:slug]`: the type as it is now (or was, for DELETE). */
export type ContentTypeWriteResponse = ContentTypeSummary;

/** What a signed-in person or a token may do (see `common/access-rules.ts`). */
export type Role = 'admin' | 'editor' | 'author' | 'viewer';

/** The roles, from most to least allowed. */
export const ROLES: readonly Role[] = ['admin', 'editor', 'author', 'viewer'];

/** What the caller may do, as `GET /api/auth/me` reports it (the server checks every request anyway). */
export interface Abilities {
  /** Read rows and content types. */
  read: boolean;
  /** Create rows. */
  create_rows: boolean;
  /** Change and delete rows anyone created (false for authors: only their own). */
  change_any_row: boolean;
  /** Change and delete rows they created. */
  change_own_rows: boolean;
  /** Upload media. */
  upload: boolean;
  /** Create, change and delete content types. */
  manage_types: boolean;
  /** Manage accounts and API tokens. */
  manage_accounts: boolean;
}

/** `GET /api/auth/me` (also the answer of sign-in, first-run and sign-out). */
export interface AuthMeResponse {
  /** Whether the request carries a credential (a session or a token), or no sign-in is needed. */
  signed_in: boolean;
  /** How: a session cookie, a token, or `local` (no accounts yet: loopback needs no sign-in). */
  via: 'session' | 'token' | 'local' | null;
  /** The account's or token's name, recorded in created_by/updated_by. */
  name: string | null;
  role: Role | null;
  /** The content types (tables or slugs) the caller is limited to, or null for all. */
  content_types: string[] | null;
  can: Abilities;
  /** Whether any account exists (then every request needs a session or a token). */
  accounts_exist: boolean;
  /** Whether `POST /api/auth/first-run` would create the first admin here. */
  first_run: boolean;
  /** A signed-in account's two-factor sign-in (null for tokens and the local user). */
  two_factor?: TwoFactorStatus | null;
  /** The editor language a signed-in account chose (`PATCH /api/auth/me`); null: none, or not an account. */
  language: EditorLanguage | null;
  /** Answering a right password of an account with two-factor sign-in: send its code to `/auth/second-factor`. */
  second_factor_required?: boolean;
  /** With `second_factor_required`: the sign-in waiting for its code (5 minutes, completes once). */
  second_factor_token?: string;
}

/** `POST /api/auth/sign-in`. */
export interface SignInRequest {
  name: string;
  password: string;
  /**
   * With two-factor sign-in: a code (or recovery code) checked with the password in one step, which
   * also signs in a name that guesses have locked.
   */
  code?: string;
}

/** `POST /api/auth/first-run`. */
export interface FirstRunRequest {
  name: string;
  password: string;
}

/** An account as `/api/accounts` shows it (never its password hash). */
export interface AccountSummary {
  name: string;
  role: Role;
  content_types: string[] | null;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

/** `GET /api/accounts` */
export interface AccountListResponse {
  accounts: AccountSummary[];
}

/**
 * `POST /api/accounts`'s answer: the new account and, when content rows already name it as their
 * author, how many and a sentence saying so. Those rows were made before accounts existed or with
 * the run token, under the editor name (`--editor`, QUIRE_EDITOR, else the computer's user name):
 * an account of that name counts them as its own (an author may change them).
 */
export interface AccountCreatedResponse extends AccountSummary {
  inherited_rows?: number;
  notice?: string;
}

/**
 * `POST /api/auth/first-run`'s answer: the new admin signed in, and (as `POST /api/accounts` says
 * it) how many rows already name it as author when it takes the editor name, with a sentence.
 */
export interface FirstRunResponse extends AuthMeResponse, Pick<AccountCreatedResponse, 'inherited_rows' | 'notice'> {}

/** `POST /api/accounts` */
export interface CreateAccountRequest {
  name: string;
  role: Role;
  password: string;
  content_types?: string[] | null;
}

/** `PATCH /api/accounts/:name`: what to change. */
export interface UpdateAccountRequest {
  role?: Role;
  password?: string;
  disabled?: boolean;
  content_types?: string[] | null;
}

/** An API token as `/api/tokens` shows it (never the token or its hash). */
export interface TokenSummary {
  name: string;
  role: Role;
  content_types: string[] | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

/** `GET /api/tokens` */
export interface TokenListResponse {
  tokens: TokenSummary[];
}

/** `POST /api/tokens` */
export interface CreateTokenRequest {
  name: string;
  role: Role;
  content_types?: string[] | null;
  /** Days until it expires; none: it never expires. */
  expires_days?: number | null;
}

/** `POST /api/tokens` (201): the token itself, shown this once. */
export type CreateTokenResponse = TokenSummary & { token: string };

/** `PATCH /api/auth/me`: the signed-in person's own preferences; absent members stay. */
export interface UpdateMeRequest {
  /** One of the editor's languages, or null to follow the browser's. */
  language?: EditorLanguage | null;
}
