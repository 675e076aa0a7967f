import type { ColumnDataType, CreateTableBuilder, Expression, Kysely } from 'kysely';

/**
 * What migrations ask of the engine they run on. A migration never asks which engine that is: the
 * steps that differ between engines are given by each engine (`sqlite-migrations.ts`,
 * `postgres-migrations.ts`), under the migration's name, as that migration needs them. Like the
 * migrations themselves, those steps are frozen: a later change to the schema is a new migration
 * with steps of its own, never an edit of these.
 */
export interface MigrationEngine {
  readonly migrations: EngineMigrations;
}

/** Each engine's steps, by the name of the migration that runs them. */
export interface EngineMigrations {
  '002-starter-types': ContentTableEngine;
  '004-article-and-menu-types': ContentTableEngine;
  '005-search-index': ContentTableEngine;
  '007-search-index-batches': ContentTableEngine;
  '008-internal-namespace': InternalNamespaceEngine;
  '010-media-table': EngineStep;
  '011-list-indexes': ContentTableEngine;
  '013-revisions': NumberedIdEngine;
  '014-search-deletes-noted': ContentTableEngine;
  '015-schedules-and-hooks': NumberedIdEngine;
  '016-row-changes': EngineStep;
  '017-list-index-null-order': ContentTableEngine;
  '018-search-index-in-memory': ContentTableEngine;
  '019-change-number-function': EngineStep;
  '020-search-row-numbers': ContentTableEngine;
  '021-order-key-columns': ContentTableEngine;
  '022-registry-check': EngineStep;
  '023-slug-gap-tokens': EngineStep;
  '026-audit-log': NumberedIdEngine;
  '030-change-feed': ChangeFeedMigrationEngine;
  '035-search-text-columns': ContentTableEngine;
}

/** A step only some engines have; the others make nothing. */
export interface EngineStep {
  up(db: Kysely<unknown>): Promise<void>;
}

/** A table's id column numbered by the database, each engine's way. */
export interface NumberedIdEngine {
  /** Adds the `id` column, the primary key, to a table being created. */
  numberedId(create: CreateTableBuilder<string, never>): CreateTableBuilder<string, 'id'>;
}

/** The change feed's columns that order it, each engine's way (migration 030). */
export interface ChangeFeedMigrationEngine extends NumberedIdEngine {
  /**
   * Adds the `tx` column: the number of the transaction that wrote the change where servers commit
   * out of order (PostgreSQL), else always 0.
   */
  transactionColumn<C extends string>(create: CreateTableBuilder<string, C>): CreateTableBuilder<string, C | 'tx'>;
}

/** An index as the engine's catalog holds it. */
export interface CatalogIndex {
  name: string;
  table: string;
  /** Its `create index` statement as `indexStatement` compiles one, to compare with a planned index. */
  sql: string;
}

/** A text column and the order key column holding its first characters. */
export interface OrderKey {
  column: string;
  key: string;
}

/** What the migrations that make or change content tables ask of the engine. */
export interface ContentTableEngine {
  /** What the database holds, as far as content tables need to know. */
  readonly schema: ContentTableCatalog;
  /** The column type that stores Quire's `text`, `integer` or `real`. */
  columnType(type: 'text' | 'integer' | 'real'): ColumnDataType | Expression<unknown>;
  /**
   * Null where an index holds text of any length; else how many leading characters of a `text`
   * column its order key column holds, which the list indexes hold in its place.
   */
  readonly textIndexPrefix: number | null;
  /** Whether `order by` puts nulls first without being told (else indexes say `nulls first`). */
  readonly sortsNullsFirst: boolean;
  /** Adds the order key columns of `keys` that `table` lacks (there are none where `textIndexPrefix` is null). */
  addOrderKeyColumns(db: Kysely<unknown>, table: string, keys: readonly OrderKey[]): Promise<void>;
  /** Creates (or re-creates, when its columns differ) the search objects of a table for `columns`. */
  ensureSearchIndex(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void>;
}

/** Reading the database's catalog. */
export interface ContentTableCatalog {
  /** Whether a table of this name exists. */
  hasTable(db: Kysely<unknown>, name: string): Promise<boolean>;
  /**
   * The indexes made by statements (not those of primary keys and constraints) of `table`, and of
   * any table when named in `alsoNamed`.
   */
  indexes(db: Kysely<unknown>, table: string, alsoNamed: readonly string[]): Promise<CatalogIndex[]>;
}

/** Migration 008's steps: those of content tables, and dropping a table's search objects under their older names. */
export interface InternalNamespaceEngine extends ContentTableEngine {
  dropOlderSearchNames(db: Kysely<unknown>, table: string): Promise<void>;
}
