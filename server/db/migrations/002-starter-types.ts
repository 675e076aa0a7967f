import type { Kysely } from 'kysely';
import type { StoredColumn } from './content-index-steps.js';
import { createContentTable, timestampNow } from './content-table-steps.js';
import type { MigrationEngine } from './migration-engine.js';

interface StarterType {
  id: string;
  slug: string;
  title: string;
  columns: StoredColumn[];
}

/** The starter content types of a fresh database: news and categories, no rows. */
export const STARTER_TYPES: StarterType[] = [
  {
    id: 'news',
    slug: 'news',
    title: 'News',
    columns: [
      { name: 'title', label: 'Title', type: 'text', required: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
      {
        name: 'status',
        label: 'Status',
        type: 'select',
        required: true,
        options: [
          { id: 'draft', text: 'Draft' },
          { id: 'published', text: 'Published' },
          { id: 'archived', text: 'Archived' },
        ],
      },
      { name: 'published_at', label: 'Published at', type: 'datetime', required: true },
    ],
  },
  {
    id: 'categories',
    slug: 'categories',
    title: 'Categories',
    columns: [
      { name: 'title', label: 'Title', type: 'text', required: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
    ],
  },
];

/** Registers the starter types and creates their tables. */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const engine = migrations['002-starter-types'];
  const now = timestampNow();
  const registry = db as Kysely<{ quire_content_types: Record<string, unknown> }>;
  for (const [position, starter] of STARTER_TYPES.entries()) {
    if (!(await engine.schema.hasTable(db, starter.slug))) {
      await createContentTable(db, engine, starter.slug, starter.columns);
    }
    await registry
      .insertInto('quire_content_types')
      .values({
        id: starter.id,
        slug: starter.slug,
        table_name: starter.slug,
        title: starter.title,
        status: 'published',
        type: 'collection',
        custom: 0,
        columns: JSON.stringify(starter.columns),
        preview_path: null,
        position,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}
