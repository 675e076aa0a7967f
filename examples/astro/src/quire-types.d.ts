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
    code: "bad_request" | "validation_failed" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "misdirected_request" | "conflict" | "payload_too_large" | "unsupported_media_type" | "internal_error" | "database_unavailable" | "too_many_requests";
    message: string;
    /** Each field’s problem, for people */
    fields?: Record<string, string>;
    problems?: Record<string, FieldProblem>;
    detail?: FieldProblem;
    references?: RowReference[];
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

export interface ColumnDescriptor {
  name: string;
  label: string;
  type: "text" | "slug" | "select" | "datetime" | "textarea" | "markdown" | "number" | "boolean" | "date" | "image" | "tags" | "relation";
  required: boolean;
  /** For slug columns: the column the slug is made from */
  parent?: string;
  /** For select columns: the choices */
  options?: SelectOption[];
  /** For relation columns: the slug of the content type it points at */
  target?: string;
  /** In a content-type update: the old name of a renamed column */
  from?: string;
}

export interface PublishedColumn {
  name: string;
  label: string;
  type: "text" | "slug" | "select" | "datetime" | "textarea" | "markdown" | "number" | "boolean" | "date" | "image" | "tags" | "relation";
  required: boolean;
  /** For slug columns: the column the slug is made from */
  parent?: string;
  /** For select columns: the choices */
  options?: SelectOption[];
  /** For relation columns: the slug of the content type it points at */
  target?: string;
  filterable: boolean;
  orderable: boolean;
}

export interface ContentTypeSummary {
  content_type_id: string;
  type: "collection";
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
  content_types: ContentTypeSummary[];
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
  type: "collection";
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
  /** The whole new list: columns matched by name or `from` keep their data, new ones are added, left-out ones are removed */
  columns?: ColumnDescriptor[];
  preview_path?: string | null;
}

export interface ContentTypeForm {
  title?: string;
  slug?: string;
  table?: string;
  /** The columns as JSON text */
  columns?: string;
  preview_path?: string;
}

export interface UploadResponse {
  /** The path of an uploaded image, as POST /api/uploads returned it (served by this server) */
  path: string;
  type: "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/avif";
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
}

export interface SignInRequest {
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
  /** http:// or https:// only */
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
}

/** What a hook receives: the newest event’s members, and every event of the delivery in `events`, oldest first */
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
  events: HookEvent[];
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

/** Every content type by its table (the :type of /api/cms/:type): its row and its responses. */
export interface Collections {
  news: { row: News; list: NewsList; item: NewsItem };
  categories: { row: Category; list: CategoryList; item: CategoryItem };
  articles: { row: Article; list: ArticleList; item: ArticleItem };
  menu_items: { row: MenuItem; list: MenuItemList; item: MenuItemItem };
}
