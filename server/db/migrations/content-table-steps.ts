import type { Kysely } from 'kysely';
import { createContentIndexes, orderKeysOf, type StoredColumn, type StoredColumnType } from './content-index-steps.js';
import type { ContentTableCatalog, ContentTableEngine } from './migration-engine.js';

/**
 * Content tables as the migrations make and visit them: one SQL table per content type, one column
 * per content column, plus the system columns. A frozen copy of what creating a type did when the
 * migrations were written (see content-index-steps.ts for why frozen).
 */

/** How each column type is stored. */
const SQL_TYPES: Record<StoredColumnType, 'text' | 'integer' | 'real'> = {
  text: 'text',
  slug: 'text',
  select: 'text',
  datetime: 'text',
  textarea: 'text',
  markdown: 'text',
  number: 'real',
  boolean: 'integer',
  date: 'text',
  image: 'text',
  tags: 'text',
  relation: 'text',
};

/**
 * Runs `step` on every content type's table that exists, with the type's columns as the registry
 * holds them.
 */
export async function forEachContentTable(
  db: Kysely<unknown>,
  engine: { readonly schema: Pick<ContentTableCatalog, 'hasTable'> },
  step: (table: string, columns: StoredColumn[]) => Promise<void>,
): Promise<void> {
  const registry = db as Kysely<{ quire_content_types: { table_name: string; columns: string } }>;
  const types = await registry.selectFrom('quire_content_types').select(['table_name', 'columns']).execute();
  for (const type of types) {
    if (!(await engine.schema.hasTable(db, type.table_name))) continue;
    await step(type.table_name, JSON.parse(type.columns) as StoredColumn[]);
  }
}

/** Creates the table of a content type with its indexes and its search objects. */
export async function createContentTable(
  db: Kysely<unknown>,
  engine: ContentTableEngine,
  table: string,
  columns: readonly StoredColumn[],
): Promise<void> {
  const text = engine.columnType('text');
  let builder = db.schema.createTable(table).addColumn('id', text, (col) => col.primaryKey().notNull());
  for (const column of columns) {
    builder = builder.addColumn(column.name, engine.columnType(SQL_TYPES[column.type]));
  }
  await builder
    .addColumn('meta', text)
    .addColumn('created_at', text, (col) => col.notNull())
    .addColumn('updated_at', text, (col) => col.notNull())
    .addColumn('created_by', text)
    .addColumn('updated_by', text)
    .execute();
  await engine.addOrderKeyColumns(db, table, orderKeysOf(engine, columns));
  await createContentIndexes(db, engine, table, columns);
  await engine.ensureSearchIndex(db, table, searchColumnsOf(columns));
}

/** The columns searches look in: the title column (a slug's source, else the first text column), then the slugs. */
export function searchColumnsOf(columns: readonly StoredColumn[]): string[] {
  const title = titleColumnOf(columns);
  const slugs = columns.filter((column) => column.type === 'slug').map((column) => column.name);
  return [...(title ? [title] : []), ...slugs.filter((name) => name !== title)];
}

function titleColumnOf(columns: readonly StoredColumn[]): string | null {
  const slugSource = columns.find((column) => column.type === 'slug' && column.parent)?.parent;
  if (slugSource && columns.some((column) => column.name === slugSource)) return slugSource;
  return columns.find((column) => column.type === 'text')?.name ?? null;
}

/** A server timestamp, UTC `YYYY-MM-DD HH:MM:SS.ffffff`, as the registry's rows hold them. */
export function timestampNow(moment: Date = new Date()): string {
  return `${moment.toISOString().slice(0, 19).replace('T', ' ')}.${String(moment.getUTCMilliseconds()).padStart(3, '0')}000`;
}
