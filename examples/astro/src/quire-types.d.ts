// TypeScript declarations of the Quire content API (version 0.1.0).
// Generated from the content types as they are now: regenerate after changing one
// (`quire types --out FILE`, or GET /api/types.d.ts).

/** One problem as data: a code and its parameters (`{ "code": "too_long", "max": 100 }`) */
export type FieldProblem = {
  code: string;
  [member: string]: unknown;
};

export interface RowReference {
  table: string;
  id: string;
  title: string | null;
  column: string;
}

export interface ErrorBody {
  error: {
    status: number;
    code: "bad_request" | "validation_failed" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "misdirected_request" | "conflict" | "payload_too_large" | "unsupported_media_type" | "internal_error" | "database_unavailable" | "too_many_requests" | "two_factor_enrolment_required" | "bad_cursor" | "cursor_expired" | "single_row_type" | "stale_write";
    message: string;
    /** Each field’s problem, for people */
    fields?: Record<string, string>;
    problems?: Record<string, FieldProblem>;
    detail?: FieldProblem;
    /** Rows still pointing at a row whose delete was refused, in content types the caller may read */
    references?: RowReference[];
    /** How many more rows point at it from content types the caller may not read (never named) */
    other_references?: number;
    /** For stale_write: what is stored now, as its read answers it (null: it no longer exists) */
    current?: unknown;
    /** For stale_write: the ETag of `current` */
    etag?: string | null;
    /** For stale_write: who last changed it, when, and which fields */
    last_change?: {
      action: string;
      by: string | null;
      at: string;
      fields: string[];
    } | null;
  };
}

/** Milliseconds spent in each phase of the read (also sent as Server-Timing) */
export interface Timing {
  total: number;
  init: number;
  filter: number;
  data: number;
  count: number;
  format: number;
}

export interface SeoMeta {
  title: string;
  description: string;
  keywords: string;
}

export interface RelationValue {
  id: string;
  title: string | null;
  slug: string | null;
}

export interface SelectOption {
  id: string;
  text: string;
}

/** The condition a column is shown and required on */
export type FieldCondition = {
  /** The name of another column of the type */
  field: string;
  /** Holds when the value is one of these. Option ids of a select, true/false of a boolean, numbers of a number, strings of a text, slug, tags or relation */
  is: (string | number | boolean)[];
} | {
  /** The name of another column of the type */
  field: string;
  /** Holds when the value is none of these. Option ids of a select, true/false of a boolean, numbers of a number, strings of a text, slug, tags or relation */
  isNot: (string | number | boolean)[];
} | {
  /** The name of another column of the type */
  field: string;
  /** Holds when the value is empty */
  empty: true;
} | {
  /** The name of another column of the type */
  field: string;
  /** Holds when the value is not empty */
  notEmpty: true;
};

export interface BlockType {
  name: string;
  label: string;
  columns: ColumnDescriptor[];
}

export interface ColumnDescriptor {
  name: string;
  label: string;
  type: "text" | "slug" | "select" | "datetime" | "textarea" | "markdown" | "richtext" | "number" | "boolean" | "date" | "image" | "tags" | "relation" | "blocks";
  required: boolean;
  /** For slug columns: the column the slug is made from */
  parent?: string;
  /** For select columns: the choices */
  options?: SelectOption[];
  /** For relation columns: the slug of the content type it points at */
  target?: string;
  /** For blocks columns: the block types a value may hold, each with its own columns */
  blocks?: BlockType[];
  /** When the column is shown in the editor and required: while the condition holds on the row. Hidden, its value is kept */
  when?: FieldCondition;
  /** A value per locale (text, textarea, markdown, slug, tags, image columns); other columns are shared by every locale */
  localized?: boolean;
  /** In a content-type update: the old name of a renamed column */
  from?: string;
}

export interface PublishedColumn {
  name: string;
  label: string;
  type: "text" | "slug" | "select" | "datetime" | "textarea" | "markdown" | "richtext" | "number" | "boolean" | "date" | "image" | "tags" | "relation" | "blocks";
  required: boolean;
  /** For slug columns: the column the slug is made from */
  parent?: string;
  /** For select columns: the choices */
  options?: SelectOption[];
  /** For relation columns: the slug of the content type it points at */
  target?: string;
  /** For blocks columns: the block types a value may hold, each with its own columns */
  blocks?: BlockType[];
  /** When the column is shown in the editor and required: while the condition holds on the row. Hidden, its value is kept */
  when?: FieldCondition;
  /** A value per locale (text, textarea, markdown, slug, tags, image columns); other columns are shared by every locale */
  localized?: boolean;
  filterable: boolean;
  orderable: boolean;
}

export interface ContentTypeSummary {
  content_type_id: string;
  /** `single`: the type holds one row, read and written at /cms/{table} */
  type: "collection" | "single";
  /** The :type segment of /api/cms/:type */
  table: string;
  title: string;
  status: string;
  slug: string;
  columns: PublishedColumn[];
  custom: boolean;
  preview_path: string | null;
  title_column: string | null;
  search_columns: string[];
}

export interface ContentTypeListResponse {
  count: number;
  content_types: {
    content_type_id: string;
    /** `single`: the type holds one row, read and written at /cms/{table} */
    type: "collection" | "single";
    /** The :type segment of /api/cms/:type */
    table: string;
    title: string;
    status: string;
    slug: string;
    columns: PublishedColumn[];
    custom: boolean;
    preview_path: string | null;
    title_column: string | null;
    search_columns: string[];
    /** The type's ETag: If-Match on its change and delete */
    version: string;
  }[];
}

/** A row of any content type: its id, one member per column, meta and the system fields */
export type ContentRow = {
  id: string;
  meta: SeoMeta | null;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  created_at: string;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  updated_at: string;
  /** Who created the row (the editor name of the server that wrote it) */
  created_by: string | null;
  /** Who last changed the row */
  updated_by: string | null;
  [member: string]: unknown;
};

export interface ContentTypeResponse {
  content_type_id: string;
  /** `single`: the type holds one row, read and written at /cms/{table} */
  type: "collection" | "single";
  /** The :type segment of /api/cms/:type */
  table: string;
  title: string;
  status: string;
  slug: string;
  columns: PublishedColumn[];
  custom: boolean;
  title_column: string | null;
  search_columns: string[];
  rows: ContentRow[];
}

export interface ContentTypeRequest {
  title?: string;
  /** Made from the title when not given (create only) */
  slug?: string;
  /** Made from the slug when not given (create only) */
  table?: string;
  /** `single` holds one row; a collection holding more than one cannot become single (409) */
  type?: "collection" | "single";
  /** The whole new list: columns matched by name or `from` keep their data, new ones are added, left-out ones are removed */
  columns?: ColumnDescriptor[];
  preview_path?: string | null;
}

export interface ContentTypeForm {
  title?: string;
  slug?: string;
  table?: string;
  type?: "collection" | "single";
  /** The columns as JSON text */
  columns?: string;
  preview_path?: string;
}

export interface UploadResponse {
  /** The path of an uploaded image, as POST /api/uploads returned it (served by this server) */
  path: string;
  type: "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/avif" | "image/svg+xml";
  size: number;
  width?: number;
  height?: number;
}

export interface UnusedMediaResponse {
  count: number;
  bytes: number;
}

export interface AuthMeResponse {
  signed_in: boolean;
  via: "session" | "token" | "local" | null;
  name: string | null;
  role: "admin" | "editor" | "author" | "viewer" | null;
  /** The content types (tables or slugs) it is limited to; null: all */
  content_types: string[] | null;
  can: {
    read: boolean;
    create_rows: boolean;
    change_any_row: boolean;
    change_own_rows: boolean;
    upload: boolean;
    manage_types: boolean;
    manage_accounts: boolean;
  };
  accounts_exist: boolean;
  first_run: boolean;
  two_factor?: TwoFactorStatus | null;
  /** The editor language a signed-in account chose; null: none, or not an account */
  language: "en" | "de" | "fr" | "es" | null;
  /** The password was right; send a code with second_factor_token to /auth/second-factor */
  second_factor_required?: boolean;
  /** The sign-in waiting for its code (5 minutes, once) */
  second_factor_token?: string;
}

export interface FirstRunResponse {
  signed_in: boolean;
  via: "session" | "token" | "local" | null;
  name: string | null;
  role: "admin" | "editor" | "author" | "viewer" | null;
  /** The content types (tables or slugs) it is limited to; null: all */
  content_types: string[] | null;
  can: {
    read: boolean;
    create_rows: boolean;
    change_any_row: boolean;
    change_own_rows: boolean;
    upload: boolean;
    manage_types: boolean;
    manage_accounts: boolean;
  };
  accounts_exist: boolean;
  first_run: boolean;
  two_factor?: TwoFactorStatus | null;
  /** The editor language a signed-in account chose; null: none, or not an account */
  language: "en" | "de" | "fr" | "es" | null;
  /** The password was right; send a code with second_factor_token to /auth/second-factor */
  second_factor_required?: boolean;
  /** The sign-in waiting for its code (5 minutes, once) */
  second_factor_token?: string;
  /** Rows that already name this account as author (made under the editor name): its own now */
  inherited_rows?: number;
  /** A sentence saying so, present with inherited_rows */
  notice?: string;
}

export interface SignInRequest {
  name: string;
  password: string;
  /** With two-factor sign-in: a code (or recovery code) checked with the password in one step, which also signs in a name that guesses have locked */
  code?: string;
}

export interface UpdateMeRequest {
  /** The editor language the account chose; null: follow the browser's */
  language?: "en" | "de" | "fr" | "es" | null;
}

export interface FirstRunRequest {
  name: string;
  password: string;
}

export interface AccountSummary {
  name: string;
  role: "admin" | "editor" | "author" | "viewer";
  /** The content types (tables or slugs) it is limited to; null: all */
  content_types: string[] | null;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface AccountCreatedResponse {
  name: string;
  role: "admin" | "editor" | "author" | "viewer";
  /** The content types (tables or slugs) it is limited to; null: all */
  content_types: string[] | null;
  disabled: boolean;
  created_at: string;
  updated_at: string;
  /** Rows that already name this account as author (made under the editor name): its own now */
  inherited_rows?: number;
  /** A sentence saying so, present with inherited_rows */
  notice?: string;
}

export interface AccountListResponse {
  accounts: AccountSummary[];
}

export interface CreateAccountRequest {
  name: string;
  role: "admin" | "editor" | "author" | "viewer";
  password: string;
  /** The content types (tables or slugs) it is limited to; null: all */
  content_types?: string[] | null;
}

export interface UpdateAccountRequest {
  role?: "admin" | "editor" | "author" | "viewer";
  password?: string;
  disabled?: boolean;
  /** The content types (tables or slugs) it is limited to; null: all */
  content_types?: string[] | null;
}

export interface TokenSummary {
  name: string;
  role: "admin" | "editor" | "author" | "viewer";
  /** The content types (tables or slugs) it is limited to; null: all */
  content_types: string[] | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface TokenListResponse {
  tokens: TokenSummary[];
}

export interface CreateTokenRequest {
  name: string;
  role: "admin" | "editor" | "author" | "viewer";
  /** The content types (tables or slugs) it is limited to; null: all */
  content_types?: string[] | null;
  /** Days until it expires; none: never */
  expires_days?: number | null;
}

export interface CreateTokenResponse {
  name: string;
  role: "admin" | "editor" | "author" | "viewer";
  /** The content types (tables or slugs) it is limited to; null: all */
  content_types: string[] | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
  /** Shown this once */
  token: string;
}

export interface RevisionSummary {
  id: number;
  action: "create" | "update" | "delete" | "restore";
  /** The fields the change set or changed; empty for a delete */
  fields: string[];
  by: string | null;
  at: string;
  /** Why the change was written: a person's edit, a scheduled change firing (by: who scheduled it), a restore, an import */
  origin: "edit" | "schedule" | "restore" | "import";
  /** A restore's: when the revision it put back was written */
  restored_from: string | null;
}

export interface RevisionListResponse {
  total: number;
  limit: number;
  offset: number;
  revisions: RevisionSummary[];
}

export interface RevisionResponse {
  revision: RevisionSummary;
  row: ContentRow;
  /** Fields the snapshot holds that the type no longer has */
  dropped: string[];
  /** Whether the row exists now */
  exists: boolean;
}

export interface RestoreResponse {
  row: ContentRow;
  revision: RevisionSummary;
  dropped: string[];
}

export interface TrashEntry {
  id: string;
  title: string | null;
  deleted_at: string;
  deleted_by: string | null;
  purge_at: string;
  revision: number;
}

export interface TrashListResponse {
  total: number;
  limit: number;
  offset: number;
  retention_days: number;
  rows: TrashEntry[];
}

export interface TypeChange {
  id: number;
  /** The content type’s slug */
  type: string;
  action: "create" | "update" | "delete";
  detail: {
    title?: {
      from: string | null;
      to: string | null;
    };
    preview_path?: {
      from: string | null;
      to: string | null;
    };
    added?: string[];
    dropped?: string[];
    renamed?: {
      from: string;
      to: string;
    }[];
    changed?: string[];
  };
  by: string | null;
  at: string;
}

export interface TypeChangeListResponse {
  total: number;
  limit: number;
  offset: number;
  changes: TypeChange[];
}

export interface RowSchedule {
  status: string;
  /** UTC, YYYY-MM-DD HH:MM:SS */
  at: string;
  /** Who scheduled it: the change is written in their name */
  by: string | null;
  /** Present while the change waits although due: its account is disabled */
  held?: "account_disabled";
}

export interface ScheduleRequest {
  /** One of the type’s status options */
  status: string;
  /** UTC: 2026-12-01 07:00:00 (ISO 8601 with T and Z accepted) */
  at: string;
}

export interface ScheduleResponse {
  id: string;
  schedule: RowSchedule | null;
}

export interface HookSummary {
  id: string;
  url: string;
  /** Content types (tables) it hears of; null: all */
  content_types: string[] | null;
  /** Which changes; null: all */
  actions: ("create" | "update" | "delete" | "restore")[] | null;
  has_secret: boolean;
  created_at: string;
  created_by: string | null;
  /** Events waiting for delivery */
  waiting: number;
  /** Failed deliveries in a row */
  failures: number;
  retry_at: string | null;
}

/** The new hook, and its secret this once */
export interface HookCreatedResponse {
  id: string;
  url: string;
  /** Content types (tables) it hears of; null: all */
  content_types: string[] | null;
  /** Which changes; null: all */
  actions: ("create" | "update" | "delete" | "restore")[] | null;
  has_secret: boolean;
  created_at: string;
  created_by: string | null;
  /** Events waiting for delivery */
  waiting: number;
  /** Failed deliveries in a row */
  failures: number;
  retry_at: string | null;
  /** Shown in this answer only */
  secret: string | null;
}

export interface HookRequest {
  /** http:// or https:// only; never this server itself (its own address and port: a 400) */
  url?: string;
  /** Tables or slugs; null or left out: all */
  content_types?: string[] | null;
  /** null or left out: all */
  actions?: ("create" | "update" | "delete" | "restore")[] | null;
  /** Signs deliveries (X-Quire-Signature); never shown again */
  secret?: string | null;
}

export interface HookListResponse {
  hooks: HookSummary[];
}

export interface HookDeleted {
  id: string;
  deleted: true;
}

export interface HookDelivery {
  id: number;
  at: string;
  status: "delivered" | "failed" | "gave_up" | "test_delivered" | "test_failed";
  response_code: number | null;
  attempt: number;
  events: number;
  error: string | null;
}

export interface HookDeliveryListResponse {
  total: number;
  limit: number;
  offset: number;
  deliveries: HookDelivery[];
}

export interface HookEvent {
  event: "content.change" | "test";
  /** The content type’s table (empty for a test) */
  type: string;
  /** The row’s id (empty for a test) */
  id: string;
  action: "create" | "update" | "delete" | "restore" | "test";
  /** When the change was committed (UTC server timestamp) */
  at: string;
  by: string | null;
  /** The change feed’s cursor of this change (GET /api/changes?since=); absent for a test */
  cursor?: string;
}

/** What a hook receives: the newest event’s members, and every event of the delivery in `events`, oldest first. Each delivery carries a `Quire-Delivery: <id>` header; a Quire server answers 403 to any write carrying it, so a delivery never starts another */
export interface HookBody {
  event: "content.change" | "test";
  /** The content type’s table (empty for a test) */
  type: string;
  /** The row’s id (empty for a test) */
  id: string;
  action: "create" | "update" | "delete" | "restore" | "test";
  /** When the change was committed (UTC server timestamp) */
  at: string;
  by: string | null;
  /** The change feed’s cursor of this change (GET /api/changes?since=); absent for a test */
  cursor?: string;
  events: HookEvent[];
}

export interface StarterSet {
  set: "keep" | "empty" | "blog" | "docs";
  title: string;
  /** One sentence: what the site gets */
  description: string;
  /** The content types the site holds after it */
  types: {
    slug: string;
    title: string;
  }[];
}

export interface StartersResponse {
  /** The set chosen, once one was */
  choice: ("keep" | "empty" | "blog" | "docs") | null;
  chosen_by: string | null;
  chosen_at: string | null;
  /** No choice yet, the starter types as Quire made them (no type made, changed or removed since) and no rows: the editor offers the choice */
  offer: boolean;
  /** The content types Quire made (custom false), with their row counts */
  starters: {
    slug: string;
    title: string;
    table: string;
    rows: number;
  }[];
  sets: StarterSet[];
}

export interface StarterChoiceRequest {
  set: "keep" | "empty" | "blog" | "docs";
}

export interface SiteLocale {
  /** A BCP 47 language tag, kept in canonical case (`de-at` is kept as `de-AT`); `all` is reserved */
  code: string;
  label: string;
  /** The listed locales a value missing in this one is taken from, in order (none: left out). The whole order: it is not followed through their own chains, and the default is not added unless named. Never the locale itself, no loops; the default locale has none */
  fallback?: string[];
}

export interface LocalesDocument {
  /** The code of the locale read and written when a request names none */
  default: string;
  locales: SiteLocale[];
}

export interface AuditEntry {
  /** Numbers every event in the order it was recorded */
  id: number;
  /** When, as a server timestamp (UTC YYYY-MM-DD HH:MM:SS.ffffff) */
  at: string;
  /** What happened: first_run, sign_in.succeeded, sign_in.failed, sign_in.locked, two_factor.enrolled, two_factor.disabled, two_factor.reset, account.created, account.role_changed, account.types_changed, account.disabled, account.enabled, account.password_changed, account.deleted, token.created, token.revoked, hook.created, hook.changed, hook.deleted, content_type.created, content_type.changed, content_type.deleted, content_type.starters_chosen, locales.changed, backup.restored */
  action: string;
  /** The account or token name, cli, or null (a failed sign-in) */
  actor: string | null;
  /** The client address as the server saw it; null for the command line */
  address: string | null;
  /** The account, token, hook, content type or backup it was done to */
  target: string | null;
  /** A few facts about it; never a secret */
  detail: Record<string, unknown>;
}

export interface AuditListResponse {
  total: number;
  limit: number;
  offset: number;
  /** Days an event is kept (--audit-days) */
  retention_days: number;
  events: AuditEntry[];
}

export interface ChangeEntry {
  /** Opaque; pass it back as since to read what came after */
  cursor: string;
  /** The content type’s table; media for an upload */
  type: string;
  /** The row’s id; for type_change, the type’s table again; for media, the upload’s /media/ path */
  id: string;
  action: "create" | "update" | "delete" | "restore" | "type_change" | "media";
  /** When the write committed (ISO 8601, UTC) */
  at: string;
  /** The account or token name, or null (command line, schedule) */
  by: string | null;
  /** The locales the write touched, where content is localized */
  locales?: string[];
}

export interface ChangePage {
  changes: ChangeEntry[];
  /** Where the next page starts: the last change’s cursor, or since again */
  next: string;
}

/** A point of the image: 0 is the left or top edge, 1 the right or bottom */
export interface FocalPoint {
  x: number;
  y: number;
}

export interface MediaAsset {
  id: string;
  /** The /media/ path rows hold; it stays when the file is replaced */
  path: string;
  /** The uploaded file’s name (the stored name for uploads older than the library) */
  file_name: string;
  type: "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/avif" | "image/svg+xml";
  /** Bytes */
  size: number;
  /** Pixels, when the header tells */
  width: number | null;
  /** Pixels, when the header tells */
  height: number | null;
  /** sha256 of the stored bytes; changes with a replace */
  hash: string;
  alt: string;
  caption: string;
  credit: string;
  focal: FocalPoint;
  folder: string | null;
  uploaded_by: string | null;
  uploaded_at: string;
  updated_at: string;
}

export interface MediaAssetDetail {
  id: string;
  /** The /media/ path rows hold; it stays when the file is replaced */
  path: string;
  /** The uploaded file’s name (the stored name for uploads older than the library) */
  file_name: string;
  type: "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/avif" | "image/svg+xml";
  /** Bytes */
  size: number;
  /** Pixels, when the header tells */
  width: number | null;
  /** Pixels, when the header tells */
  height: number | null;
  /** sha256 of the stored bytes; changes with a replace */
  hash: string;
  alt: string;
  caption: string;
  credit: string;
  focal: FocalPoint;
  folder: string | null;
  uploaded_by: string | null;
  uploaded_at: string;
  updated_at: string;
  /** Rows the caller may read that name the asset’s path */
  used_in: {
    type: string;
    table: string;
    row: string;
    fields: string[];
  }[];
  /** Rows of types the caller may not read */
  used_elsewhere: number;
}

export interface MediaList {
  /** Assets in the library */
  total: number;
  /** Assets matching the search and filters */
  filtered: number;
  count: number;
  assets: MediaAsset[];
}

export interface MediaAssetPatch {
  alt?: string;
  caption?: string;
  credit?: string;
  focal?: FocalPoint;
  /** null or "" for none */
  folder?: string | null;
}

/** What a row read carries for one image value, under media, keyed by its path */
export interface ImageLayout {
  alt: string;
  /** Pixels, when the header tells */
  width: number | null;
  /** Pixels, when the header tells */
  height: number | null;
  focal: FocalPoint;
  /** The asset’s content hash: the v of its variant URLs */
  hash: string;
}

export interface TwoFactorStatus {
  /** Whether signing in asks for a code after the password */
  enabled: boolean;
  /** Whether the server (--require-2fa) requires this account to enrol before anything else */
  enrolment_required: boolean;
  recovery_codes_left: number;
}

export interface TwoFactorEnrolmentResponse {
  /** The TOTP secret in base32, for typing into an app; shown this once */
  secret: string;
  /** The otpauth://totp/ URI the QR code holds */
  uri: string;
  /** The QR code as a data:image/png;base64 URL */
  qr_code: string;
  qr_path: {
    size: number;
    d: string;
  };
}

export interface TwoFactorCodeRequest {
  /** Six digits from the app */
  code: string;
}

export interface TwoFactorConfirmedResponse {
  status: TwoFactorStatus;
  /** Ten single-use codes, shown this once */
  recovery_codes: string[];
}

export interface TwoFactorDisableRequest {
  password: string;
  code: string;
}

export interface SecondFactorRequest {
  /** second_factor_token from the sign-in answer */
  token: string;
  /** Six digits from the app, or a recovery code */
  code: string;
}

export interface AuthProvidersResponse {
  /** Whether POST /auth/sign-in takes a name and password (off with --no-password-sign-in) */
  password: boolean;
  /** The OpenID Connect provider, or null when none is configured (--oidc-issuer) */
  single_sign_on: {
    /** The provider, as "Sign in with <name>" says it */
    name: string;
    /** Where a browser goes to sign in through it */
    start_url: string;
  } | null;
}

/** A row of News (/api/cms/news) */
export interface News {
  /** The row’s id (its primary key) */
  id: string;
  /** Title */
  title: string;
  /** A URL slug, made from title when not given */
  slug: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** Wall-clock date and time, YYYY-MM-DD HH:MM:SS, no time zone (sorts as text) */
  published_at: string;
  /** SEO data, or null when none is set */
  meta: SeoMeta | null;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  created_at: string;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  updated_at: string;
  /** Who created the row (the editor name of the server that wrote it) */
  created_by: string | null;
  /** Who last changed the row */
  updated_by: string | null;
  /** The row’s pending scheduled change, or null (on reads; not on write answers) */
  schedule?: RowSchedule | null;
}

/** GET /api/cms/news */
export interface NewsList {
  time: Timing;
  /** All rows of the type */
  total: number;
  /** Rows matching the filters */
  filtered: number;
  /** Rows in `rows` */
  count: number;
  pk: "id";
  rows: News[];
  columns: PublishedColumn[];
  filters: [];
  preview_path: string | null;
  custom: boolean;
}

/** GET /api/cms/news/{id}: one row, and its page meta */
export interface NewsItem {
  time: Timing;
  /** All rows of the type */
  total: number;
  /** Rows matching the filters */
  filtered: number;
  /** Rows in `rows` */
  count: number;
  pk: "id";
  rows: News[];
  columns: PublishedColumn[];
  filters: [];
  preview_path: string | null;
  custom: boolean;
  meta: SeoMeta;
}

/** A new row of News as JSON */
export interface NewsInput {
  /** Title */
  title: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** YYYY-MM-DD HH:MM:SS; also accepted: a T separator, no seconds, fractional seconds, a trailing Z */
  published_at: string;
  /** SEO data to set (members left out stay as they are), or null to clear it */
  meta?: {
    title?: string | null;
    description?: string | null;
    keywords?: string | null;
  } | null;
  meta_title?: string | null;
  meta_description?: string | null;
  meta_keywords?: string | null;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

/** A change to a row of News as JSON: what changes */
export interface NewsUpdate {
  /** Title */
  title?: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status?: "draft" | "published" | "archived";
  /** YYYY-MM-DD HH:MM:SS; also accepted: a T separator, no seconds, fractional seconds, a trailing Z */
  published_at?: string;
  /** SEO data to set (members left out stay as they are), or null to clear it */
  meta?: {
    title?: string | null;
    description?: string | null;
    keywords?: string | null;
  } | null;
  meta_title?: string | null;
  meta_description?: string | null;
  meta_keywords?: string | null;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

/** A new row of News as a form; tags repeat their key (tags=a&tags=b) */
export interface NewsForm {
  /** Title */
  title: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** YYYY-MM-DD HH:MM:SS; also accepted: a T separator, no seconds, fractional seconds, a trailing Z */
  published_at: string;
  "meta[title]"?: string;
  meta_title?: string;
  "meta[description]"?: string;
  meta_description?: string;
  "meta[keywords]"?: string;
  meta_keywords?: string;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

/** A change to a row of News as a form: what changes */
export interface NewsUpdateForm {
  /** Title */
  title?: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status?: "draft" | "published" | "archived";
  /** YYYY-MM-DD HH:MM:SS; also accepted: a T separator, no seconds, fractional seconds, a trailing Z */
  published_at?: string;
  "meta[title]"?: string;
  meta_title?: string;
  "meta[description]"?: string;
  meta_description?: string;
  "meta[keywords]"?: string;
  meta_keywords?: string;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

export interface NewsCreated {
  id: string;
  rows: News[];
}

/** The deleted row and rowCount */
export interface NewsDeleted {
  /** The row’s id (its primary key) */
  id: string;
  /** Title */
  title: string;
  /** A URL slug, made from title when not given */
  slug: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** Wall-clock date and time, YYYY-MM-DD HH:MM:SS, no time zone (sorts as text) */
  published_at: string;
  /** SEO data, or null when none is set */
  meta: SeoMeta | null;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  created_at: string;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  updated_at: string;
  /** Who created the row (the editor name of the server that wrote it) */
  created_by: string | null;
  /** Who last changed the row */
  updated_by: string | null;
  rowCount: 1;
}

/** A row of Categories (/api/cms/categories) */
export interface Category {
  /** The row’s id (its primary key) */
  id: string;
  /** Title */
  title: string;
  /** A URL slug, made from title when not given */
  slug: string;
  /** SEO data, or null when none is set */
  meta: SeoMeta | null;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  created_at: string;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  updated_at: string;
  /** Who created the row (the editor name of the server that wrote it) */
  created_by: string | null;
  /** Who last changed the row */
  updated_by: string | null;
  /** The row’s pending scheduled change, or null (on reads; not on write answers) */
  schedule?: RowSchedule | null;
}

/** GET /api/cms/categories */
export interface CategoryList {
  time: Timing;
  /** All rows of the type */
  total: number;
  /** Rows matching the filters */
  filtered: number;
  /** Rows in `rows` */
  count: number;
  pk: "id";
  rows: Category[];
  columns: PublishedColumn[];
  filters: [];
  preview_path: string | null;
  custom: boolean;
}

/** GET /api/cms/categories/{id}: one row, and its page meta */
export interface CategoryItem {
  time: Timing;
  /** All rows of the type */
  total: number;
  /** Rows matching the filters */
  filtered: number;
  /** Rows in `rows` */
  count: number;
  pk: "id";
  rows: Category[];
  columns: PublishedColumn[];
  filters: [];
  preview_path: string | null;
  custom: boolean;
  meta: SeoMeta;
}

/** A new row of Categories as JSON */
export interface CategoryInput {
  /** Title */
  title: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** SEO data to set (members left out stay as they are), or null to clear it */
  meta?: {
    title?: string | null;
    description?: string | null;
    keywords?: string | null;
  } | null;
  meta_title?: string | null;
  meta_description?: string | null;
  meta_keywords?: string | null;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

/** A change to a row of Categories as JSON: what changes */
export interface CategoryUpdate {
  /** Title */
  title?: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** SEO data to set (members left out stay as they are), or null to clear it */
  meta?: {
    title?: string | null;
    description?: string | null;
    keywords?: string | null;
  } | null;
  meta_title?: string | null;
  meta_description?: string | null;
  meta_keywords?: string | null;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

/** A new row of Categories as a form; tags repeat their key (tags=a&tags=b) */
export interface CategoryForm {
  /** Title */
  title: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  "meta[title]"?: string;
  meta_title?: string;
  "meta[description]"?: string;
  meta_description?: string;
  "meta[keywords]"?: string;
  meta_keywords?: string;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

/** A change to a row of Categories as a form: what changes */
export interface CategoryUpdateForm {
  /** Title */
  title?: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  "meta[title]"?: string;
  meta_title?: string;
  "meta[description]"?: string;
  meta_description?: string;
  "meta[keywords]"?: string;
  meta_keywords?: string;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

export interface CategoryCreated {
  id: string;
  rows: Category[];
}

/** The deleted row and rowCount */
export interface CategoryDeleted {
  /** The row’s id (its primary key) */
  id: string;
  /** Title */
  title: string;
  /** A URL slug, made from title when not given */
  slug: string;
  /** SEO data, or null when none is set */
  meta: SeoMeta | null;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  created_at: string;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  updated_at: string;
  /** Who created the row (the editor name of the server that wrote it) */
  created_by: string | null;
  /** Who last changed the row */
  updated_by: string | null;
  rowCount: 1;
}

/** A row of Articles (/api/cms/articles) */
export interface Article {
  /** The row’s id (its primary key) */
  id: string;
  /** Title */
  title: string;
  /** A URL slug, made from title when not given */
  slug: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** Wall-clock date and time, YYYY-MM-DD HH:MM:SS, no time zone (sorts as text) */
  published_at: string;
  /** Description */
  description: string | null;
  /** Body */
  body: string | null;
  /** The path of an uploaded image, as POST /api/uploads returned it (served by this server) */
  image: string | null;
  /** Tags */
  tags: string[];
  /** A row of categories: its id, title and slug */
  category: {
    id: string;
    title: string | null;
    slug: string | null;
  } | null;
  /** SEO data, or null when none is set */
  meta: SeoMeta | null;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  created_at: string;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  updated_at: string;
  /** Who created the row (the editor name of the server that wrote it) */
  created_by: string | null;
  /** Who last changed the row */
  updated_by: string | null;
  /** The row’s pending scheduled change, or null (on reads; not on write answers) */
  schedule?: RowSchedule | null;
  /** For each image the row shows (image fields, and images in rich text, Markdown and blocks), keyed by its path: what lays it out (on reads; rows with images) */
  media?: Record<string, ImageLayout>;
}

/** GET /api/cms/articles */
export interface ArticleList {
  time: Timing;
  /** All rows of the type */
  total: number;
  /** Rows matching the filters */
  filtered: number;
  /** Rows in `rows` */
  count: number;
  pk: "id";
  rows: Article[];
  columns: PublishedColumn[];
  filters: [];
  preview_path: string | null;
  custom: boolean;
}

/** GET /api/cms/articles/{id}: one row, and its page meta */
export interface ArticleItem {
  time: Timing;
  /** All rows of the type */
  total: number;
  /** Rows matching the filters */
  filtered: number;
  /** Rows in `rows` */
  count: number;
  pk: "id";
  rows: Article[];
  columns: PublishedColumn[];
  filters: [];
  preview_path: string | null;
  custom: boolean;
  meta: SeoMeta;
}

/** A new row of Articles as JSON */
export interface ArticleInput {
  /** Title */
  title: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** YYYY-MM-DD HH:MM:SS; also accepted: a T separator, no seconds, fractional seconds, a trailing Z */
  published_at: string;
  /** Description */
  description?: string | null;
  /** Body */
  body?: string | null;
  /** The path of an uploaded image, as POST /api/uploads returned it (served by this server) */
  image?: string | null;
  /** Tags */
  tags?: string[] | string;
  /** The id of a row of categories (or an object with its id) */
  category?: (string | {
    id: string;
  }) | null;
  /** SEO data to set (members left out stay as they are), or null to clear it */
  meta?: {
    title?: string | null;
    description?: string | null;
    keywords?: string | null;
  } | null;
  meta_title?: string | null;
  meta_description?: string | null;
  meta_keywords?: string | null;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
  /** Set by the server; ignored */
  media?: unknown;
}

/** A change to a row of Articles as JSON: what changes */
export interface ArticleUpdate {
  /** Title */
  title?: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status?: "draft" | "published" | "archived";
  /** YYYY-MM-DD HH:MM:SS; also accepted: a T separator, no seconds, fractional seconds, a trailing Z */
  published_at?: string;
  /** Description */
  description?: string | null;
  /** Body */
  body?: string | null;
  /** The path of an uploaded image, as POST /api/uploads returned it (served by this server) */
  image?: string | null;
  /** Tags */
  tags?: string[] | string;
  /** The id of a row of categories (or an object with its id) */
  category?: (string | {
    id: string;
  }) | null;
  /** SEO data to set (members left out stay as they are), or null to clear it */
  meta?: {
    title?: string | null;
    description?: string | null;
    keywords?: string | null;
  } | null;
  meta_title?: string | null;
  meta_description?: string | null;
  meta_keywords?: string | null;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
  /** Set by the server; ignored */
  media?: unknown;
}

/** A new row of Articles as a form; tags repeat their key (tags=a&tags=b) */
export interface ArticleForm {
  /** Title */
  title: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** YYYY-MM-DD HH:MM:SS; also accepted: a T separator, no seconds, fractional seconds, a trailing Z */
  published_at: string;
  /** Description */
  description?: string;
  /** Body */
  body?: string;
  /** The path of an uploaded image, as POST /api/uploads returned it (served by this server) */
  image?: string;
  /** Tags */
  tags?: string[];
  /** The id of a row of categories */
  category?: string;
  "meta[title]"?: string;
  meta_title?: string;
  "meta[description]"?: string;
  meta_description?: string;
  "meta[keywords]"?: string;
  meta_keywords?: string;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
  /** Set by the server; ignored */
  media?: unknown;
}

/** A change to a row of Articles as a form: what changes */
export interface ArticleUpdateForm {
  /** Title */
  title?: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status?: "draft" | "published" | "archived";
  /** YYYY-MM-DD HH:MM:SS; also accepted: a T separator, no seconds, fractional seconds, a trailing Z */
  published_at?: string;
  /** Description */
  description?: string;
  /** Body */
  body?: string;
  /** The path of an uploaded image, as POST /api/uploads returned it (served by this server) */
  image?: string;
  /** Tags */
  tags?: string[];
  /** The id of a row of categories */
  category?: string;
  "meta[title]"?: string;
  meta_title?: string;
  "meta[description]"?: string;
  meta_description?: string;
  "meta[keywords]"?: string;
  meta_keywords?: string;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
  /** Set by the server; ignored */
  media?: unknown;
}

export interface ArticleCreated {
  id: string;
  rows: Article[];
}

/** The deleted row and rowCount */
export interface ArticleDeleted {
  /** The row’s id (its primary key) */
  id: string;
  /** Title */
  title: string;
  /** A URL slug, made from title when not given */
  slug: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** Wall-clock date and time, YYYY-MM-DD HH:MM:SS, no time zone (sorts as text) */
  published_at: string;
  /** Description */
  description: string | null;
  /** Body */
  body: string | null;
  /** The path of an uploaded image, as POST /api/uploads returned it (served by this server) */
  image: string | null;
  /** Tags */
  tags: string[];
  /** A row of categories: its id, title and slug */
  category: {
    id: string;
    title: string | null;
    slug: string | null;
  } | null;
  /** SEO data, or null when none is set */
  meta: SeoMeta | null;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  created_at: string;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  updated_at: string;
  /** Who created the row (the editor name of the server that wrote it) */
  created_by: string | null;
  /** Who last changed the row */
  updated_by: string | null;
  rowCount: 1;
}

/** A row of Menu items (/api/cms/menu_items) */
export interface MenuItem {
  /** The row’s id (its primary key) */
  id: string;
  /** Title */
  title: string;
  /** A URL slug, made from title when not given */
  slug: string;
  /** URL */
  url: string | null;
  /** Position */
  position: number | null;
  /** A row of menu_items: its id, title and slug */
  parent: {
    id: string;
    title: string | null;
    slug: string | null;
  } | null;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** SEO data, or null when none is set */
  meta: SeoMeta | null;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  created_at: string;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  updated_at: string;
  /** Who created the row (the editor name of the server that wrote it) */
  created_by: string | null;
  /** Who last changed the row */
  updated_by: string | null;
  /** The row’s pending scheduled change, or null (on reads; not on write answers) */
  schedule?: RowSchedule | null;
}

/** GET /api/cms/menu_items */
export interface MenuItemList {
  time: Timing;
  /** All rows of the type */
  total: number;
  /** Rows matching the filters */
  filtered: number;
  /** Rows in `rows` */
  count: number;
  pk: "id";
  rows: MenuItem[];
  columns: PublishedColumn[];
  filters: [];
  preview_path: string | null;
  custom: boolean;
}

/** GET /api/cms/menu_items/{id}: one row, and its page meta */
export interface MenuItemItem {
  time: Timing;
  /** All rows of the type */
  total: number;
  /** Rows matching the filters */
  filtered: number;
  /** Rows in `rows` */
  count: number;
  pk: "id";
  rows: MenuItem[];
  columns: PublishedColumn[];
  filters: [];
  preview_path: string | null;
  custom: boolean;
  meta: SeoMeta;
}

/** A new row of Menu items as JSON */
export interface MenuItemInput {
  /** Title */
  title: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** URL */
  url?: string | null;
  /** A finite number, or its decimal text */
  position?: (number | string) | null;
  /** The id of a row of menu_items (or an object with its id) */
  parent?: (string | {
    id: string;
  }) | null;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** SEO data to set (members left out stay as they are), or null to clear it */
  meta?: {
    title?: string | null;
    description?: string | null;
    keywords?: string | null;
  } | null;
  meta_title?: string | null;
  meta_description?: string | null;
  meta_keywords?: string | null;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

/** A change to a row of Menu items as JSON: what changes */
export interface MenuItemUpdate {
  /** Title */
  title?: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** URL */
  url?: string | null;
  /** A finite number, or its decimal text */
  position?: (number | string) | null;
  /** The id of a row of menu_items (or an object with its id) */
  parent?: (string | {
    id: string;
  }) | null;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status?: "draft" | "published" | "archived";
  /** SEO data to set (members left out stay as they are), or null to clear it */
  meta?: {
    title?: string | null;
    description?: string | null;
    keywords?: string | null;
  } | null;
  meta_title?: string | null;
  meta_description?: string | null;
  meta_keywords?: string | null;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

/** A new row of Menu items as a form; tags repeat their key (tags=a&tags=b) */
export interface MenuItemForm {
  /** Title */
  title: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** URL */
  url?: string;
  /** A finite number as decimal text */
  position?: string;
  /** The id of a row of menu_items */
  parent?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  "meta[title]"?: string;
  meta_title?: string;
  "meta[description]"?: string;
  meta_description?: string;
  "meta[keywords]"?: string;
  meta_keywords?: string;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

/** A change to a row of Menu items as a form: what changes */
export interface MenuItemUpdateForm {
  /** Title */
  title?: string;
  /** A URL slug (normalised to lowercase a-z, 0-9 and hyphens); made from title when not given */
  slug?: string;
  /** URL */
  url?: string;
  /** A finite number as decimal text */
  position?: string;
  /** The id of a row of menu_items */
  parent?: string;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status?: "draft" | "published" | "archived";
  "meta[title]"?: string;
  meta_title?: string;
  "meta[description]"?: string;
  meta_description?: string;
  "meta[keywords]"?: string;
  meta_keywords?: string;
  /** Set by the server; ignored */
  id?: unknown;
  /** Set by the server; ignored */
  created_at?: unknown;
  /** Set by the server; ignored */
  updated_at?: unknown;
  /** Set by the server; ignored */
  created_by?: unknown;
  /** Set by the server; ignored */
  updated_by?: unknown;
  /** Set by the server; ignored */
  schedule?: unknown;
}

export interface MenuItemCreated {
  id: string;
  rows: MenuItem[];
}

/** The deleted row and rowCount */
export interface MenuItemDeleted {
  /** The row’s id (its primary key) */
  id: string;
  /** Title */
  title: string;
  /** A URL slug, made from title when not given */
  slug: string;
  /** URL */
  url: string | null;
  /** Position */
  position: number | null;
  /** A row of menu_items: its id, title and slug */
  parent: {
    id: string;
    title: string | null;
    slug: string | null;
  } | null;
  /** One of: draft (Draft), published (Published), archived (Archived) */
  status: "draft" | "published" | "archived";
  /** SEO data, or null when none is set */
  meta: SeoMeta | null;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  created_at: string;
  /** Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff */
  updated_at: string;
  /** Who created the row (the editor name of the server that wrote it) */
  created_by: string | null;
  /** Who last changed the row */
  updated_by: string | null;
  rowCount: 1;
}

/**
 * Every content type by its table (the :type of /api/cms/:type): its kind, its row and its responses.
 * A single type has no list: GET /api/cms/:type answers `item`, its one row.
 */
export interface Collections {
  news: { kind: 'collection'; row: News; list: NewsList; item: NewsItem };
  categories: { kind: 'collection'; row: Category; list: CategoryList; item: CategoryItem };
  articles: { kind: 'collection'; row: Article; list: ArticleList; item: ArticleItem };
  menu_items: { kind: 'collection'; row: MenuItem; list: MenuItemList; item: MenuItemItem };
}
