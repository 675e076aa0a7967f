import type { Kysely } from 'kysely';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import type { QuireDb } from '../db/database.js';
import { STARTER_TYPES } from '../db/migrations/002-starter-types.js';
import { ARTICLE_AND_MENU_TYPES } from '../db/migrations/004-article-and-menu-types.js';
import { indexedColumnsOfTable } from '../db/queries/search-text-columns.js';
import { ACCOUNT_TABLES, SESSIONS_TABLE } from '../db/repositories/account-repository.js';
import { ASSETS_TABLE } from '../db/repositories/asset-repository.js';
import { AUDIT_TABLE } from '../db/repositories/audit-repository.js';
import { createContentTable, dropContentTable } from '../db/repositories/content-schema-repository.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { HOOK_TABLES, HOOKS_TABLE } from '../db/repositories/hook-repository.js';
import { LOCALES_TABLE } from '../db/repositories/locale-repository.js';
import { REVISION_TABLES } from '../db/repositories/revision-repository.js';
import { SCHEDULES_TABLE } from '../db/repositories/schedule-repository.js';
import { SETTINGS_TABLE } from '../db/repositories/settings-repository.js';
import type { QuireDatabase } from '../db/schema.js';

/**
 * Copying a whole site between two open databases of either engine: the registry, every content
 * table's rows exactly as stored, and the uploads (through each database's `uploads`). All target
 * writes run in one transaction (DDL is transactional on both engines), so a failed copy leaves the
 * target as it was. The source is only read.
 */

/** A copy that cannot go ahead or did not check out: its message is one line for the user. */
export class SiteCopyError extends Error {}

/** Rows read and written per statement. */
const BATCH_ROWS = 500;

/** An upload to carry: its path under `/media/`, its MIME type, its bytes. */
export interface CopiedMedia {
  path: string;
  type: string;
  bytes: Buffer;
  /** Where the source keeps it, when that is a file a person can find (a media folder's). */
  origin?: string;
}

/** How a copy went: rows per type slug and the upload count, as found in the target afterwards. */
export interface SiteCopyCounts {
  rows: Record<string, number>;
  media: number;
}

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

function loose(db: Kysely<QuireDatabase> | Kysely<unknown>): AnyDb {
  return db as unknown as AnyDb;
}

/** Why the target cannot take a copy without `--force`, or null when it holds only the starter types, empty. */
export async function targetContents(target: QuireDb): Promise<string | null> {
  const starters = new Set([
    ...STARTER_TYPES.map((starter) => starter.id),
    ...ARTICLE_AND_MENU_TYPES.map((starter) => starter.slug),
  ]);
  const types = await new ContentTypeRepository(target.db).listAll();
  const extra = types.filter((type) => !starters.has(type.id));
  if (extra.length > 0) return `it has ${extra.length} content type(s) beyond the starter types`;
  for (const type of types) {
    const count = await countRows(target.db, type.table_name);
    if (count > 0) return `its type ${type.slug} has ${count} row(s)`;
  }
  if ((await target.uploads.replaceable(target.db)) > 0) return 'it holds uploads';
  return null;
}

/** The number of rows of a table. */
export async function countRows(db: Kysely<QuireDatabase>, table: string): Promise<number> {
  const row = await loose(db)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every row of a source table, in id order, a batch at a time. */
export async function* readRowBatches(
  db: Kysely<QuireDatabase>,
  table: string,
): AsyncGenerator<Record<string, unknown>[]> {
  let after: string | null = null;
  for (;;) {
    let query = loose(db).selectFrom(table).selectAll().orderBy('id').limit(BATCH_ROWS);
    if (after !== null) query = query.where('id', '>', after);
    const rows = await query.execute();
    if (rows.length === 0) return;
    yield rows;
    after = String(rows[rows.length - 1].id);
    if (rows.length < BATCH_ROWS) return;
  }
}

/** What a copy writes into the target's transaction, step by step. */
export interface SiteCopyWriter {
  /**
   * Removes every content type, its table and the uploads the database itself keeps: the starter
   * types of a fresh target (the source's registry replaces them, also where the source deleted
   * one), or all the target held with `--force`.
   */
  clear(): Promise<void>;
  /**
   * Registers a type as the source has it and creates its table the engine's way, with the locale
   * columns its localized columns have under the source's locales `locales`.
   */
  createType(
    record: Record<string, unknown>,
    columns: readonly ColumnDescriptor[],
    locales: LocalesDocument,
  ): Promise<void>;
  /** Inserts rows as stored. */
  insertRows(table: string, rows: Record<string, unknown>[]): Promise<void>;
  /** Rebuilds a table's search index from its rows (rows written here bypass the row service). */
  reindex(table: string, columns: readonly ColumnDescriptor[]): Promise<void>;
  /** Keeps an upload; returns how to take it back if the copy fails after all, or null. */
  writeMedia(media: CopiedMedia): Promise<(() => Promise<void>) | null>;
  /** Keeps an upload's bytes as they came where they are never served (`SiteUploads.setAside`). */
  setAsideMedia(path: string, bytes: Buffer): Promise<{ kept: string; undo: () => Promise<void> } | null>;
}

/** Runs `work` with a writer on one transaction of the target; commits when it returns. */
export async function inTargetTransaction<T>(
  target: QuireDb,
  work: (writer: SiteCopyWriter) => Promise<T>,
): Promise<T> {
  const copied: string[] = [];
  const result = await target.db.transaction().execute(async (trx) => {
    const db = trx as unknown as Kysely<unknown>;
    // The locales each content table was made under: its search index follows their columns.
    const localesOf = new Map<string, LocalesDocument>();
    const writer: SiteCopyWriter = {
      async clear() {
        for (const type of await new ContentTypeRepository(trx).listAll()) {
          await dropContentTable(db, target.engine, type.table_name);
        }
        await trx.deleteFrom('quire_content_types').execute();
        await target.uploads.clear(db);
        await loose(db).deleteFrom(ASSETS_TABLE).execute();
        for (const table of [...ACCOUNT_TABLES].reverse()) await loose(db).deleteFrom(table).execute();
        for (const table of REVISION_TABLES) await loose(db).deleteFrom(table).execute();
        await loose(db).deleteFrom(AUDIT_TABLE).execute();
        for (const table of [SCHEDULES_TABLE, ...HOOK_TABLES, SETTINGS_TABLE, LOCALES_TABLE])
          await loose(db).deleteFrom(table).execute();
      },
      async createType(record, columns, locales) {
        await createContentTable(db, target.engine, String(record.table_name), columns, locales);
        localesOf.set(String(record.table_name), locales);
        await loose(db).insertInto('quire_content_types').values(record).execute();
      },
      async insertRows(table, rows) {
        if (rows.length > 0) await loose(db).insertInto(table).values(rows).execute();
      },
      async reindex(table, columns) {
        await target.engine.searchIndex.drop(db, table);
        const locales = localesOf.get(table) ?? DEFAULT_LOCALES;
        await target.engine.searchIndex.ensure(db, table, indexedColumnsOfTable(columns, locales));
        // The planner's statistics of the copied rows, as after an import.
        await target.afterRowsLoaded(db, table);
        copied.push(table);
      },
      writeMedia(media) {
        return target.uploads.write(db, media);
      },
      setAsideMedia(path, bytes) {
        return target.uploads.setAside(path, bytes);
      },
    };
    const done = await work(writer);
    // Revisions and audit events were inserted with their ids: the next ones continue after them.
    await target.afterIdsLoaded(db);
    // Servers already on the target reload the registry when its version moves.
    await new ContentTypeRepository(trx).bumpVersion();
    return done;
  });
  // As after an import: lists walk the indexes without reading the table.
  await target.afterLoadCommitted(copied);
  return result;
}

/** The registry rows of a database, as stored. */
export async function registryRows(database: Pick<QuireDb, 'db'>): Promise<Record<string, unknown>[]> {
  return loose(database.db).selectFrom('quire_content_types').selectAll().orderBy('position').execute();
}

/**
 * The accounts and API tokens of a database as stored, table by table in the order they
 * load. Sessions are not carried: people sign in again on the copy.
 */
export async function accountRows(database: Pick<QuireDb, 'db'>): Promise<[string, Record<string, unknown>[]][]> {
  const tables = ACCOUNT_TABLES.filter((table) => table !== SESSIONS_TABLE);
  return Promise.all(
    tables.map(async (table) => [
      table,
      await loose(database.db).selectFrom(table).selectAll().orderBy('id').execute(),
    ]),
  ) as Promise<[string, Record<string, unknown>[]][]>;
}

/**
 * Build hooks and scheduled changes of a database, table by table in the order they
 * load. Hooks come without their delivery state (a copy has delivered nothing yet); the outbox and
 * the delivery log are not carried, so a copy never sends the source's events again.
 */
export async function publishingRows(database: Pick<QuireDb, 'db'>): Promise<[string, Record<string, unknown>[]][]> {
  const hooks = await loose(database.db).selectFrom(HOOKS_TABLE).selectAll().orderBy('id').execute();
  const schedules = await loose(database.db)
    .selectFrom(SCHEDULES_TABLE)
    .selectAll()
    .orderBy('table_name')
    .orderBy('row_id')
    .execute();
  return [
    [
      HOOKS_TABLE,
      hooks.map((hook) => ({ ...hook, failures: 0, retry_at: null, lease_until: null, lease_owner: null })),
    ],
    [SCHEDULES_TABLE, schedules],
  ];
}

/** The site-wide settings of a database as stored (the first run's starter choice among them). */
export async function settingsRows(database: Pick<QuireDb, 'db'>): Promise<Record<string, unknown>[]> {
  return loose(database.db).selectFrom(SETTINGS_TABLE).selectAll().orderBy('name').execute();
}
