import type { AliasableExpression, ColumnDataType, Expression, Kysely, SqlBool } from 'kysely';
import type { SqlType } from '../fields/field.js';
import type { SearchIndexEngine } from '../search/search-engine.js';
import type { EngineMigrations } from './migrations/migration-engine.js';

// The search interfaces belong to the search engine (server/search/); they are named here too for
// the code that reaches them through the engine.
export type {
  MemoryCondition,
  MemorySearch,
  MemorySearchPage,
  MemorySearchQuery,
  MemorySearchRequest,
  RowQueryStep,
  SearchIndexEngine,
  SqlSearchIndex,
} from '../search/search-engine.js';
export { sameColumns } from '../search/search-engine.js';

/**
 * The SQL side of the seam between Quire and the database it runs on. Kysely writes the portable
 * SQL (selects, writes, `create table` and `alter table` with Quire's column types); what it cannot
 * write the same way everywhere is listed here, and each engine (`sqlite-engine.ts`,
 * `postgres-engine.ts`) implements it in one place. The rest of the seam (connection, uploads,
 * bulk import, backups) is the open database's (`QuireDb`, database.ts). Repositories and services
 * reach engine specifics only through them, so they never know which one is in use.
 *
 * Every method that runs SQL takes the Kysely to run it on: the database, or a transaction of it.
 */
export interface DatabaseEngine {
  /**
   * Which database this is, for tests and benches that chose an engine and say so; the server
   * asks the seam's members instead.
   */
  readonly kind: 'sqlite' | 'postgres';
  /**
   * The column type that stores Quire's `text`, `integer` or `real` so that values read back as on
   * SQLite (PostgreSQL's own `real` is a 4-byte float, and its text sorts by the database's locale).
   */
  columnType(type: SqlType): ColumnDataType | Expression<unknown>;
  /**
   * A case-insensitive, Unicode-aware substring match of `keyword` in any of `columns` of `table`
   * (row by row where the engine can fold in SQL; through the search index where it cannot).
   */
  containsIgnoringCase(table: string, columns: readonly string[], keyword: string): Expression<SqlBool>;
  /**
   * Whether a column can hold `value` at all (PostgreSQL's text cannot hold NUL). A filter on a
   * value no column can hold matches no row, and is answered so without sending it.
   */
  canHold(value: unknown): boolean;
  /** Whether the JSON array stored in `column` holds `value` (tags membership). */
  jsonArrayContains(column: string, value: unknown): Expression<SqlBool>;
  /**
   * Null when an index can hold any text value (SQLite). Else the number of leading characters of a
   * `text` column its list indexes hold, through its order key column (`left(column, n)` stored
   * beside it, see order-key-columns.ts): PostgreSQL's b-tree refuses entries over about 2.7 kB,
   * and a text column holds up to 100,000 characters. Lists ordered by such a column order by that
   * prefix first, which the index serves, then by the whole value.
   */
  readonly textIndexPrefix: number | null;
  /**
   * Whether `order by x` puts nulls first (and `desc` last) without being told, as SQLite does.
   * PostgreSQL puts them last; there lists and their indexes say `nulls first` so that a list is in
   * the same order on both engines.
   */
  readonly sortsNullsFirst: boolean;
  /**
   * The rows whose `id` is among the ids a subquery of one column returns (a list's page past an
   * offset, found in the list indexes first: see list-order.ts `offsetPageIds`).
   */
  idAmong(ids: Expression<unknown>): Expression<SqlBool>;
  /** Whether an error is a unique-constraint failure (a conflict the client can fix). */
  isUniqueViolation(error: unknown): boolean;
  /**
   * Whether a write failed on a statement prepared before its table's columns changed (PostgreSQL's
   * named statements): run again, it is prepared anew.
   */
  isStaleStatement(error: unknown): boolean;
  /**
   * Takes a lock on `key` that the transaction `db` holds until it ends, which other writers taking
   * the same key wait for (PostgreSQL's parallel writers); nothing where writes already run one at
   * a time (SQLite).
   */
  lockUntilCommit(db: Kysely<unknown>, key: string): Promise<void>;
  /**
   * Whether a row read for a write is locked until the write's transaction ends (PostgreSQL's
   * parallel writers: a second write of the row waits, then reads the row as the first left it);
   * SQLite's writes already run one at a time.
   */
  readonly locksRowsForWrites: boolean;
  /** The search index of content tables. */
  readonly searchIndex: SearchIndexEngine;
  /** Change numbers of content tables, where several servers may share the database (PostgreSQL). */
  readonly rowChanges?: RowChangeCounter;
  /** A row write's check that the content types it ran on are current, where servers share the database. */
  readonly registryCheck?: RegistryCheck;
  /** How the change feed hands out only changes that nothing still running can precede. */
  readonly changeOrder: ChangeOrder;
  /** What the database holds, as far as content tables need to know. */
  readonly schema: SchemaIntrospection;
  /** The engine's own steps of the migrations, by migration name (migrations/migration-engine.ts). */
  readonly migrations: EngineMigrations;
}

/**
 * The change feed orders changes by (`tx`, `id`) (migration 030). Where one writer commits changes
 * in the order of their ids, every change a read sees is final; where several transactions commit
 * out of order, a change may commit after a read with a smaller position than one the read saw,
 * so reads hand out only the changes below the bound no running transaction can go under.
 */
export interface ChangeOrder {
  /**
   * A `tx` every change still to commit is at or above, read in a statement of its own before the
   * changes are (so their snapshot is later); null where every visible change is final.
   */
  settledBelow(db: Kysely<unknown>): Promise<number | null>;
}

/**
 * A number per content table that every committed row write raises in its own transaction, so a
 * count kept in memory can be checked, in the statement that reads the number, against every
 * server's writes. Engines where one process owns the database (SQLite) keep none: the read cache
 * hears of every write there.
 */
/** See postgres-registry-check.ts. */
export interface RegistryCheck {
  /** Makes what the check runs (a migration runs it once). */
  create(db: Kysely<unknown>): Promise<void>;
  /** Fails the write's transaction `db` unless the registry is at `version` when it commits. */
  check(db: Kysely<unknown>, version: number): Promise<void>;
  /** Whether `error` is that failure. */
  isTypesChanged(error: unknown): boolean;
}

export interface RowChangeCounter {
  /** Makes what keeps the numbers (a migration runs it once). */
  create(db: Kysely<unknown>): Promise<void>;
  /**
   * Raises `table`'s number; run inside the write's transaction, so it commits with the rows. A
   * write that is not `onlyAdds` (an update, a delete) also raises its gap token (`gapToken`).
   */
  rowsChanged(db: Kysely<unknown>, table: string, onlyAdds: boolean): Promise<void>;
  /** Makes what keeps the gap tokens (a migration runs it once, after `create`). */
  createGapTokens(db: Kysely<unknown>): Promise<void>;
  /**
   * `table`'s gap token now, as text: equal in two statements only if no update or delete of its
   * rows (which may free a slug), no content-type change and no re-creation of the table committed
   * between them. Creates alone leave it as it is.
   */
  gapToken(table: string): AliasableExpression<string>;
  /**
   * `table`'s number now, as text: equal in two statements only if no row write to it, no
   * content-type change and no re-creation of the table committed between them.
   */
  changeNumber(table: string): AliasableExpression<string>;
  /** The content-type registry's version a change number was read at (it moves the number too). */
  registryVersionOf(number: string): number;
}

/** Reading the database's catalog: which tables, schema objects and indexes exist. */
export interface SchemaIntrospection {
  /** Whether a table of this name exists. */
  hasTable(db: Kysely<unknown>, name: string): Promise<boolean>;
  /** What kind of schema object (`table`, `index`, `view`, ...) already has this name, or null. */
  objectType(db: Kysely<unknown>, name: string): Promise<string | null>;
  /**
   * The indexes made by statements (not those a primary key or constraint makes itself) of `table`,
   * and of any table when named in `alsoNamed`.
   */
  indexes(db: Kysely<unknown>, table: string, alsoNamed?: readonly string[]): Promise<IndexDefinition[]>;
}

/** An index as the database holds it. */
export interface IndexDefinition {
  name: string;
  table: string;
  /** Its `create index` statement as Kysely compiles one, to compare with a planned index. */
  sql: string;
}

/**
 * `engine` without its in-memory search index: for a command that reads a site and never searches
 * (an export), whose first list would otherwise start building an index it never uses. Searches,
 * if any, go to the engine's SQL index or the plain scan.
 */
export function withoutMemorySearch(engine: DatabaseEngine): DatabaseEngine {
  return { ...engine, searchIndex: { ...engine.searchIndex, memory: undefined } };
}
