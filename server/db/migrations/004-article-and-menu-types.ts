import type { Kysely } from 'kysely';
import type { StoredColumn } from './content-index-steps.js';
import { createContentTable, timestampNow } from './content-table-steps.js';
import type { MigrationEngine } from './migration-engine.js';

const STATUS: StoredColumn = {
  name: 'status',
  label: 'Status',
  type: 'select',
  required: true,
  options: [
    { id: 'draft', text: 'Draft' },
    { id: 'published', text: 'Published' },
    { id: 'archived', text: 'Archived' },
  ],
};

/** The article-like and menu starter types added in this version. */
export const ARTICLE_AND_MENU_TYPES = [
  {
    slug: 'articles',
    title: 'Articles',
    flatMeta: true,
    columns: [
      { name: 'title', label: 'Title', type: 'text', required: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
      STATUS,
      { name: 'published_at', label: 'Published at', type: 'datetime', required: true },
      { name: 'description', label: 'Description', type: 'textarea', required: false },
      { name: 'body', label: 'Body', type: 'markdown', required: false },
      { name: 'image', label: 'Image', type: 'image', required: false },
      { name: 'tags', label: 'Tags', type: 'tags', required: false },
      { name: 'category', label: 'Category', type: 'relation', required: false, target: 'categories' },
    ],
  },
  {
    slug: 'menu_items',
    title: 'Menu items',
    flatMeta: false,
    columns: [
      { name: 'title', label: 'Title', type: 'text', required: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
      { name: 'url', label: 'URL', type: 'text', required: false },
      { name: 'position', label: 'Position', type: 'number', required: false },
      { name: 'parent', label: 'Parent item', type: 'relation', required: false, target: 'menu_items' },
      STATUS,
    ],
  },
] satisfies { slug: string; title: string; flatMeta: boolean; columns: StoredColumn[] }[];

/**
 * Adds the registry's `flat_meta` flag and the `articles` and `menu_items` starter types, to fresh
 * databases and to databases created by earlier versions alike (a slug already in use is left alone).
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const engine = migrations['004-article-and-menu-types'];
  await db.schema
    .alterTable('quire_content_types')
    .addColumn('flat_meta', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  const registry = db as Kysely<{ quire_content_types: Record<string, unknown> }>;
  const now = timestampNow();
  const taken = new Set(
    (await registry.selectFrom('quire_content_types').select(['slug', 'table_name']).execute()).flatMap((row) => [
      row.slug,
      row.table_name,
    ]),
  );
  let position = taken.size;
  for (const starter of ARTICLE_AND_MENU_TYPES) {
    if (taken.has(starter.slug) || (await engine.schema.hasTable(db, starter.slug))) continue;
    await createContentTable(db, engine, starter.slug, starter.columns);
    await registry
      .insertInto('quire_content_types')
      .values({
        id: starter.slug,
        slug: starter.slug,
        table_name: starter.slug,
        title: starter.title,
        status: 'published',
        type: 'collection',
        custom: 0,
        columns: JSON.stringify(starter.columns),
        preview_path: null,
        position: position++,
        flat_meta: starter.flatMeta ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}
