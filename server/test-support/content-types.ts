import type { ContentType } from '../content/content-type.js';
import { contentTypeFromRecord } from '../content/content-type.js';
import { STARTER_TYPES } from '../db/migrations/002-starter-types.js';

/** A starter content type as the registry would load it, for unit tests. */
export function starterType(slug: 'news' | 'categories'): ContentType {
  const starter = STARTER_TYPES.find((type) => type.slug === slug);
  if (!starter) throw new Error(`no starter type ${slug}`);
  return contentTypeFromRecord({
    id: starter.id,
    slug: starter.slug,
    table_name: starter.slug,
    title: starter.title,
    status: 'published',
    type: 'collection',
    custom: 0,
    columns: JSON.stringify(starter.columns),
    preview_path: null,
    position: 0,
    flat_meta: 0,
    created_at: '2026-01-01 00:00:00.000000',
    updated_at: '2026-01-01 00:00:00.000000',
  });
}
