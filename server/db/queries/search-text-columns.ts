import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../../common/locale-rules.js';
import { SEARCHED_BODY_TYPES, searchColumnsOf } from '../../../common/title-rules.js';
import { fieldFor } from '../../fields/field-registry.js';
import { searchColumnsOfEveryLocale } from '../../locales/locale-search-columns.js';
import { documentOf } from '../../locales/locale-service.js';
import type { DatabaseEngine } from '../engine.js';
import { LOCALES_TABLE, LocaleRepository } from '../repositories/locale-repository.js';
import type { QuireDatabase } from '../schema.js';
import { isSearchTextColumn, searchTextColumnName } from './internal-names.js';

/**
 * Search text columns: each rich text or blocks column of a content table (`SEARCHED_BODY_TYPES`)
 * has a stored text column beside it, `"quire_text:body"`, holding the text its field type derives
 * from the value (`FieldType.searchText`: rich text without its tags, the text fields inside
 * blocks). The search index covers that column in the body column's place, so the search engine
 * on every engine reads plain text as it reads a title, and no SQL needs to know HTML or JSON.
 *
 * Every write of a body column writes its text column in the same statement (`withSearchTexts`:
 * a row's create and update, the bulk import); a type change fills them again for every row
 * (`refillSearchTexts`). Rows carry the column as they carry the others; the API's row format and
 * revisions read the type's own columns only.
 */

/** The body columns of a type whose text a search covers through a text column. */
function bodyColumnsOf(columns: readonly ColumnDescriptor[]): ColumnDescriptor[] {
  return columns.filter((column) => SEARCHED_BODY_TYPES.has(column.type));
}

/** The text columns a content table with `columns` has, one per body column. */
export function searchTextColumnsOf(columns: readonly ColumnDescriptor[]): string[] {
  return bodyColumnsOf(columns).map((column) => searchTextColumnName(column.name));
}

/**
 * The columns of a content table its search index covers: the search columns the type publishes
 * (`searchColumnsOf`), each body column replaced by its text column.
 */
export function indexedSearchColumnsOf(columns: readonly ColumnDescriptor[]): string[] {
  const bodies = new Set(bodyColumnsOf(columns).map((column) => column.name));
  return searchColumnsOf(columns).map((name) => (bodies.has(name) ? searchTextColumnName(name) : name));
}

/**
 * The columns whose changes a content table's search index follows under the site's locales
 * `document`: `indexedSearchColumnsOf`, then each other locale's columns for the localized ones
 * (server/locales/locale-search-columns.ts), so that a search in any locale is answered by an index.
 */
export function indexedColumnsOfTable(columns: readonly ColumnDescriptor[], document: LocalesDocument): string[] {
  return searchColumnsOfEveryLocale(document, columns, indexedSearchColumnsOf(columns));
}

/**
 * `stored` (a row's stored values, whole or the columns a write changes) with the text column of
 * each body column it holds set from that column's stored value.
 */
export function withSearchTexts<R extends Record<string, unknown>>(columns: readonly ColumnDescriptor[], stored: R): R {
  for (const column of bodyColumnsOf(columns)) {
    if (!Object.hasOwn(stored, column.name)) continue;
    const value = stored[column.name];
    // A set body without text has an empty text, not none: none marks a row whose text is still to fill.
    const text =
      value === null || value === undefined ? null : (fieldFor(column.type).searchText?.(value, column) ?? '');
    (stored as Record<string, unknown>)[searchTextColumnName(column.name)] = text;
  }
  return stored;
}

/**
 * A stored row without its search text columns: what a revision keeps (the text is derived again
 * from the body whenever the row is written).
 */
export function withoutSearchTexts<R extends Record<string, unknown>>(row: R): R {
  if (!Object.keys(row).some(isSearchTextColumn)) return row;
  return Object.fromEntries(Object.entries(row).filter(([name]) => !isSearchTextColumn(name))) as R;
}

/** Rows read and written again per statement when the text columns are filled. */
const FILL_BATCH = 500;

/**
 * The body columns a type change leaves as they were but for their name, label and the like (same
 * type, same block types), by name after the change, with their name before: their values and so their text stay,
 * and their text columns are kept (renamed with them) rather than made and filled again.
 */
export function unchangedBodies(change: {
  renames: readonly { from: string; to: string }[];
  columns: readonly ColumnDescriptor[];
  before?: readonly ColumnDescriptor[];
}): Map<string, string> {
  const before = new Map((change.before ?? []).map((column) => [column.name, column]));
  const kept = new Map<string, string>();
  for (const column of bodyColumnsOf(change.columns)) {
    const from = change.renames.find((rename) => rename.to === column.name)?.from ?? column.name;
    const old = before.get(from);
    if (old && textShape(old) === textShape(column)) kept.set(column.name, from);
  }
  return kept;
}

/** What a body column's text depends on besides its value: its type and its block types. */
const textShape = (column: ColumnDescriptor) => JSON.stringify([column.type, column.blocks ?? null]);

/** Renames the text columns of the kept body columns renamed by a type change (after the columns' renames). */
export async function renameSearchTextColumns(
  db: Kysely<unknown>,
  table: string,
  kept: ReadonlyMap<string, string>,
): Promise<void> {
  for (const [to, from] of kept) {
    if (to === from) continue;
    await db.schema.alterTable(table).renameColumn(searchTextColumnName(from), searchTextColumnName(to)).execute();
  }
}

/**
 * Drops the text columns of `before`'s body columns (a type change, before the table's columns
 * move; the search index that names them must be dropped first).
 */
export async function dropSearchTextColumns(
  db: Kysely<unknown>,
  table: string,
  before: readonly ColumnDescriptor[],
): Promise<void> {
  for (const name of searchTextColumnsOf(before)) {
    await db.schema.alterTable(table).dropColumn(name).execute();
  }
}

/** Adds the text columns of `columns`' body columns to `table` and fills them from every row. */
export async function addSearchTextColumns(
  db: Kysely<unknown>,
  engine: DatabaseEngine,
  table: string,
  columns: readonly ColumnDescriptor[],
): Promise<void> {
  for (const name of searchTextColumnsOf(columns)) {
    await db.schema.alterTable(table).addColumn(name, engine.columnType('text')).execute();
  }
  await refillSearchTexts(db, table, columns);
}

/**
 * Writes the text columns of every row (or of those `only` picks) again from its body columns, a
 * batch of rows at a time, in id order.
 */
export async function refillSearchTexts(
  db: Kysely<unknown>,
  table: string,
  columns: readonly ColumnDescriptor[],
  only: RawBuilder<unknown> = sql`true`,
): Promise<void> {
  const bodies = bodyColumnsOf(columns);
  if (bodies.length === 0) return;
  const rows = db as Kysely<Record<string, Record<string, unknown>>>;
  const selected = sql.join([sql.id('id'), ...bodies.map((column) => sql.id(column.name))]);
  let after: string | null = null;
  for (;;) {
    const from: ReturnType<typeof sql> = after === null ? sql`true` : sql`id > ${after}`;
    const batch = await sql<Record<string, unknown>>`select ${selected} from ${sql.id(table)}
      where ${from} and (${only}) order by id limit ${FILL_BATCH}`.execute(db);
    for (const row of batch.rows) {
      const { id, ...values } = withSearchTexts(bodies, { ...row });
      const texts = Object.fromEntries(
        bodies.map((column) => [searchTextColumnName(column.name), values[searchTextColumnName(column.name)]]),
      );
      await rows.updateTable(table).set(texts).where(sql.ref('id'), '=', id).execute();
    }
    if (batch.rows.length < FILL_BATCH) return;
    after = String(batch.rows[batch.rows.length - 1].id);
  }
}

/** The migration that adds the text columns, empty (migrations cannot derive text: see its header). */
export const SEARCH_TEXT_MIGRATION = '035-search-text-columns';

/**
 * What follows `SEARCH_TEXT_MIGRATION` at every start (an `AfterMigration`): fills the text
 * columns of rows whose body is set and whose text is not (all of them right after the migration,
 * those a start stopped midway left after that) and makes the table's search index again over
 * them, a table per transaction. One look per table when every row has its text.
 */
export async function fillMissingSearchTexts(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const registry = db as Kysely<{ quire_content_types: { table_name: string; columns: string } }>;
  const types = await registry.selectFrom('quire_content_types').select(['table_name', 'columns']).execute();
  let document: LocalesDocument | null = null;
  for (const type of types) {
    const columns = JSON.parse(type.columns) as ColumnDescriptor[];
    const bodies = bodyColumnsOf(columns);
    if (bodies.length === 0 || !(await engine.schema.hasTable(db, type.table_name))) continue;
    const missing = sql.join(
      bodies.map(
        (column) => sql`(${sql.id(searchTextColumnName(column.name))} is null and ${sql.id(column.name)} is not null)`,
      ),
      sql` or `,
    );
    const left = await sql`select 1 from ${sql.id(type.table_name)} where ${missing} limit 1`.execute(db);
    if (left.rows.length === 0) continue;
    document ??= await storedLocales(db, engine);
    const indexed = indexedColumnsOfTable(columns, document);
    await db.transaction().execute(async (trx) => {
      await refillSearchTexts(trx, type.table_name, columns, missing);
      await engine.searchIndex.ensure(trx, type.table_name, indexed);
    });
  }
}

/** The site's locales as stored, or the default ones where the migration storing them has not run yet. */
async function storedLocales(db: Kysely<unknown>, engine: DatabaseEngine): Promise<LocalesDocument> {
  if (!(await engine.schema.hasTable(db, LOCALES_TABLE))) return DEFAULT_LOCALES;
  return documentOf(await new LocaleRepository(db as Kysely<QuireDatabase>).read());
}
