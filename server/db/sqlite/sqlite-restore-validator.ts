import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { checkLocalesDocument, DEFAULT_LOCALES } from '../../../common/locale-rules.js';
import { isIdentifier, isReservedTable } from '../../../common/naming-rules.js';
import { contentTypeFromRecord } from '../../content/content-type.js';
import { migrationProvider } from '../migrations/index.js';
import { indexedColumnsOfTable, SEARCH_TEXT_MIGRATION, searchTextColumnsOf } from '../queries/search-text-columns.js';
import { rebuildContentIndexes } from '../repositories/content-schema-repository.js';
import type { ContentTypeRecord } from '../repositories/content-type-repository.js';
import { LOCALES_TABLE } from '../repositories/locale-repository.js';
import { REGISTRY_TABLE } from '../schema.js';
import { openDatabase, type SqliteQuireDb } from './sqlite-database.js';
import { openSqliteFile, type SqliteHandle, type SqliteOptions } from './sqlite-dialect.js';
import { sqliteEngine } from './sqlite-engine.js';
import {
  type ContentTableSpec,
  columnDefinitions,
  isCoreObject,
  normalizeSql,
  referenceContentSchema,
  referenceCoreSchema,
  type SchemaObject,
  schemaObjects,
} from './sqlite-schema-reference.js';

/**
 * What a restore accepts: only a database Quire itself writes. A backup is a file from anywhere,
 * and what it holds runs inside the server afterwards: its triggers fire on the API's writes, its
 * views run on its reads (a recursive one never ends), its registry decides whether the server
 * starts at all. So a copy of the backup is checked before it replaces anything:
 *
 * 1. Before any migration runs, reading only `sqlite_master`, pragmas and the registry (none of
 *    which can run a view or trigger): a known schema version, no views, no table that is neither
 *    Quire's (`quire_`, `kysely_`, `sqlite_`) nor a content table the registry names, no trigger or
 *    index outside those, a registry whose every type loads (`contentTypeFromRecord`), and content
 *    tables whose columns are exactly the ones Quire writes for their types.
 * 2. The copy is migrated with the normal migrations (`openDatabase`): an older schema is brought
 *    up to date, which also renames internal objects of older versions into today's namespace.
 * 3. The registry tables must then be exactly today's, and each content table's derived objects
 *    (SQL indexes, search index, its triggers) exactly what today's code makes for its columns;
 *    where they differ (a trigger that only looks like Quire's, say), they are rebuilt from the
 *    registry, as editing the type would.
 */

/** Why a backup cannot be restored: one line, worded to follow "FILE cannot be restored: ". */
export class RestoreRefusal extends Error {}

/** Columns of the registry that every version since the first has. */
const REGISTRY_COLUMNS = [
  'id',
  'slug',
  'table_name',
  'title',
  'status',
  'type',
  'custom',
  'columns',
  'preview_path',
  'position',
  'created_at',
  'updated_at',
];

/** Prefixes of the tables, indexes and triggers that belong to Quire, Kysely or SQLite itself. */
const OWN_PREFIXES = ['quire_', 'kysely_', 'sqlite_'];

/** Checks, migrates and normalizes `file` (a copy the restore owns); throws RestoreRefusal. */
export async function admitRestoredCopy(file: string, options: SqliteOptions = {}): Promise<void> {
  const raw = openSqliteFile(file, options);
  try {
    const objects = schemaObjects(raw);
    const applied = await checkSchemaVersion(raw, objects);
    const view = objects.find((object) => object.type === 'view');
    if (view) throw new RestoreRefusal(`it has a view ${JSON.stringify(view.name)}, and Quire never creates views`);
    const types = readRegistry(raw, objects);
    checkOwnership(objects, types);
    await checkContentTables(objects, types, applied.includes(SEARCH_TEXT_MIGRATION));
  } finally {
    raw.close();
  }

  let database: SqliteQuireDb;
  try {
    database = await openDatabase(file, options);
  } catch (error) {
    throw new RestoreRefusal(`it could not be migrated to this version's schema (${oneLine(error)})`);
  }
  try {
    await checkCoreTables(database.raw);
    await checkOwnTableIndexes(database.raw);
    await rebuildDerivedObjects(database, readRegistry(database.raw, schemaObjects(database.raw)));
    // Self-contained again: one file, nothing in a -wal beside it, before it is renamed into place.
    database.raw.pragma('wal_checkpoint(TRUNCATE)');
    database.raw.pragma('journal_mode = DELETE');
  } finally {
    await database.close();
  }
}

/** Checks the copy's schema version; returns the migrations applied to it. */
async function checkSchemaVersion(raw: SqliteHandle, objects: readonly SchemaObject[]): Promise<string[]> {
  const table = (name: string) => objects.find((object) => object.name === name);
  if (table('kysely_migration')?.type !== 'table') {
    throw new RestoreRefusal('it has no schema version (no kysely_migration table), so Quire did not write it');
  }
  if (table(REGISTRY_TABLE)?.type !== 'table') {
    throw new RestoreRefusal(`it has no content-type registry (${REGISTRY_TABLE} table)`);
  }
  const known = new Set(Object.keys(await migrationProvider(sqliteEngine).getMigrations()));
  const applied = raw.prepare('select name from kysely_migration order by name').pluck().all() as unknown[];
  const unknown = applied.find((name) => typeof name !== 'string' || !known.has(name));
  if (unknown !== undefined) {
    throw new RestoreRefusal(
      `it was written by a newer version of Quire (its schema migration ${JSON.stringify(unknown)} is unknown to this one); update Quire, then restore`,
    );
  }
  return applied as string[];
}

/** The registry's types, each checked as the server checks it when it starts. */
function readRegistry(raw: SqliteHandle, objects: readonly SchemaObject[]): ContentTableSpec[] {
  const present = new Set(
    (raw.prepare(`select name from pragma_table_info('${REGISTRY_TABLE}')`).pluck().all() as string[]).map(String),
  );
  const missing = REGISTRY_COLUMNS.find((column) => !present.has(column));
  if (missing) throw new RestoreRefusal(`its content-type registry has no ${missing} column`);
  const rows = raw.prepare(`select * from ${REGISTRY_TABLE}`).all() as Record<string, unknown>[];
  const locales = readLocales(raw, objects);
  const tables = new Set<string>();
  return rows.map((row) => {
    const name = JSON.stringify(String(row.slug));
    const table = row.table_name;
    if (typeof table !== 'string' || !isIdentifier(table) || isReservedTable(table)) {
      throw new RestoreRefusal(`content type ${name} names the table ${JSON.stringify(table)}, not a content table`);
    }
    if (tables.has(table)) throw new RestoreRefusal(`two content types name the table ${JSON.stringify(table)}`);
    tables.add(table);
    const columns = parseColumns(row.columns, name);
    try {
      contentTypeFromRecord({ ...row, flat_meta: row.flat_meta ?? 0 } as ContentTypeRecord);
    } catch (error) {
      throw new RestoreRefusal(`its content-type registry does not load: ${oneLine(error)}`);
    }
    if (!objects.some((object) => object.type === 'table' && object.name === table)) {
      throw new RestoreRefusal(`content type ${name} has no table ${JSON.stringify(table)}`);
    }
    return { table, columns, locales };
  });
}

/**
 * The site's locales the copy holds (its localized columns' locale columns follow them), checked
 * as a `PUT /api/locales` is: their codes name columns. A copy from before locales has the default.
 */
function readLocales(raw: SqliteHandle, objects: readonly SchemaObject[]): LocalesDocument {
  if (!objects.some((object) => object.type === 'table' && object.name === LOCALES_TABLE)) return DEFAULT_LOCALES;
  const row = raw.prepare(`select document from ${LOCALES_TABLE} where id = 1`).get() as
    | { document: unknown }
    | undefined;
  if (row === undefined || row.document === null) return DEFAULT_LOCALES;
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(row.document));
  } catch {
    throw new RestoreRefusal('its locales are not valid JSON');
  }
  const checked = checkLocalesDocument(parsed);
  if (checked.problems) throw new RestoreRefusal('its locales break the rules a change of them is held to');
  return checked.document;
}

function parseColumns(text: unknown, name: string): ColumnDescriptor[] {
  let columns: unknown;
  try {
    columns = JSON.parse(String(text));
  } catch {
    throw new RestoreRefusal(`the columns of content type ${name} in its registry are not valid JSON`);
  }
  const wellFormed =
    Array.isArray(columns) &&
    columns.every(
      (column) =>
        typeof column === 'object' && column !== null && typeof column.name === 'string' && isIdentifier(column.name),
    );
  if (!wellFormed) throw new RestoreRefusal(`the columns of content type ${name} in its registry are malformed`);
  return columns as ColumnDescriptor[];
}

/** No table, index or trigger that is neither Quire's nor a content table's. */
function checkOwnership(objects: readonly SchemaObject[], types: readonly ContentTableSpec[]): void {
  const contentTables = new Set(types.map((type) => type.table));
  const own = (name: string) => OWN_PREFIXES.some((prefix) => name.startsWith(prefix));
  for (const object of objects) {
    const name = JSON.stringify(object.name);
    const table = JSON.stringify(object.tbl_name);
    if (object.type === 'table' && !own(object.name) && !contentTables.has(object.name)) {
      throw new RestoreRefusal(`it has a table ${name} that is neither Quire's nor a content type's`);
    }
    if (object.type === 'trigger' && (!own(object.name) || !contentTables.has(object.tbl_name))) {
      throw new RestoreRefusal(`it has a trigger ${name} on ${table} that Quire did not write`);
    }
    // Quire's indexes are on content tables, and on its own tables where a migration makes one (held
    // against a fresh database's once migrated, checkOwnTableIndexes); the registry's are SQLite's.
    const onOwnTable = own(object.name) && own(object.tbl_name) && !isCoreObject(object);
    if (object.type === 'index' && object.sql !== null && !contentTables.has(object.tbl_name) && !onOwnTable) {
      throw new RestoreRefusal(`it has an index ${name} on ${table} that Quire did not write`);
    }
  }
}

/**
 * Each content table is a plain table with exactly the column definitions Quire writes for its
 * type; a copy older than `textColumnsMade` may lack its search text columns (the migration adds them).
 */
async function checkContentTables(
  objects: readonly SchemaObject[],
  types: readonly ContentTableSpec[],
  textColumnsMade: boolean,
) {
  const reference = await referenceContentSchema(types);
  for (const { table, columns } of types) {
    const notYet = textColumnsMade ? [] : searchTextColumnsOf(columns).map((column) => normalizeSql(`"${column}"`));
    const found = objects.find((object) => object.type === 'table' && object.name === table);
    const expected = reference.find((object) => object.type === 'table' && object.name === table);
    const name = JSON.stringify(table);
    const actual = columnDefinitions(found?.sql ?? '');
    if (!actual) throw new RestoreRefusal(`the content table ${name} is not a plain table`);
    const wanted = columnDefinitions(expected?.sql ?? '') ?? [];
    const extra = actual.find((definition) => !wanted.includes(definition));
    if (extra) throw new RestoreRefusal(`the content table ${name} has a definition Quire does not write: ${extra}`);
    const lacking = wanted.find(
      (definition) => !actual.includes(definition) && !notYet.some((column) => definition.startsWith(`${column} `)),
    );
    if (lacking) throw new RestoreRefusal(`the content table ${name} lacks ${lacking}, which its content type needs`);
  }
}

/** After migrating: the registry and schema-version tables are exactly today's. */
async function checkCoreTables(raw: SqliteHandle): Promise<void> {
  const reference = await referenceCoreSchema();
  const actual = schemaObjects(raw).filter(isCoreObject);
  for (const object of [...reference, ...actual]) {
    const expected = reference.find((other) => other.name === object.name);
    const found = actual.find((other) => other.name === object.name);
    if (!expected || !found || normalizeSql(expected.sql ?? '') !== normalizeSql(found.sql ?? '')) {
      throw new RestoreRefusal(`its ${object.type} ${JSON.stringify(object.name)} is not the one Quire writes`);
    }
  }
}

/**
 * After migrating: the indexes made by statements on Quire's own tables (not content tables) are
 * exactly those a fresh database has, so an index a backup adds there is refused, not kept.
 */
async function checkOwnTableIndexes(raw: SqliteHandle): Promise<void> {
  const fresh = await openDatabase(':memory:');
  let reference: SchemaObject[];
  try {
    reference = ownTableIndexes(fresh.raw);
  } finally {
    await fresh.close();
  }
  const actual = ownTableIndexes(raw);
  for (const object of [...reference, ...actual]) {
    const expected = reference.find((other) => other.name === object.name);
    const found = actual.find((other) => other.name === object.name);
    if (!expected || !found || normalizeSql(expected.sql ?? '') !== normalizeSql(found.sql ?? '')) {
      throw new RestoreRefusal(
        `its index ${JSON.stringify(object.name)} on ${JSON.stringify(object.tbl_name)} is not the one Quire writes`,
      );
    }
  }
}

/** Indexes made by statements on tables named like Quire's own (content tables never are). */
function ownTableIndexes(raw: SqliteHandle): SchemaObject[] {
  const own = (name: string) => OWN_PREFIXES.some((prefix) => name.startsWith(prefix));
  return schemaObjects(raw).filter((object) => object.type === 'index' && object.sql !== null && own(object.tbl_name));
}

/**
 * Gives each content table exactly the indexes, search index and triggers today's code makes for
 * its columns, rebuilding those of a table where anything differs.
 */
async function rebuildDerivedObjects(database: SqliteQuireDb, types: readonly ContentTableSpec[]): Promise<void> {
  const reference = await referenceContentSchema(types);
  const db = database.db as unknown as Kysely<unknown>;
  for (const type of types) {
    if (derivedObjectsMatch(schemaObjects(database.raw), reference, type.table)) continue;
    await db.transaction().execute(async (trx) => {
      for (const object of schemaObjects(database.raw)) {
        if (object.tbl_name !== type.table || object.sql === null) continue;
        if (object.type === 'trigger') await sql`drop trigger ${sql.id(object.name)}`.execute(trx);
        if (object.type === 'index') await sql`drop index ${sql.id(object.name)}`.execute(trx);
      }
      await database.engine.searchIndex.drop(trx, type.table);
      await rebuildContentIndexes(trx, database.engine, type.table, type.columns, type.locales);
      await database.engine.searchIndex.ensure(
        trx,
        type.table,
        indexedColumnsOfTable(type.columns, type.locales ?? DEFAULT_LOCALES),
      );
    });
    if (!derivedObjectsMatch(schemaObjects(database.raw), reference, type.table)) {
      throw new RestoreRefusal(`the indexes of the content table ${JSON.stringify(type.table)} could not be rebuilt`);
    }
  }
}

/** Whether the indexes and triggers on `table`, and the tables they write to, are the reference's. */
function derivedObjectsMatch(actual: readonly SchemaObject[], reference: readonly SchemaObject[], table: string) {
  const derived = (objects: readonly SchemaObject[]) => {
    const own = objects.filter((object) => object.tbl_name === table && object.sql !== null && object.name !== table);
    // The search index and its pending table: the tables the reference's triggers write to.
    const targets = reference.filter(
      (object) =>
        object.type === 'table' &&
        object.name !== table &&
        reference.some((trigger) => trigger.tbl_name === table && trigger.sql?.includes(`"${object.name}"`)),
    );
    const written = objects.filter((object) => targets.some((target) => target.name === object.name));
    return new Map([...own, ...written].map((object) => [object.name, normalizeSql(object.sql ?? '')]));
  };
  const expected = derived(reference);
  const found = derived(actual);
  return expected.size === found.size && [...expected].every(([name, text]) => found.get(name) === text);
}

function oneLine(error: unknown): string {
  return String((error as Error)?.message ?? error)
    .split('\n')[0]
    .trim();
}
