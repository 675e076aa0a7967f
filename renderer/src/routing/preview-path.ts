import type { ColumnDescriptor, ContentRow } from '../../../common/api-contract.js';

/**
 * The address of a row on the site, from the type's `preview_path` template: `{slug}` and `{id}`
 * become the saved row's slug and id (URL-encoded). Null when the type has no template or a
 * placeholder has no value yet (a row without a slug).
 */
export function previewHref(
  template: string | null,
  columns: readonly ColumnDescriptor[],
  row: ContentRow | null,
): string | null {
  if (!template || !row) return null;
  const slugColumn =
    columns.find((column) => column.name === 'slug') ?? columns.find((column) => column.type === 'slug');
  const slug = slugColumn ? row[slugColumn.name] : undefined;
  const values: Record<string, string | null> = {
    id: row.id,
    slug: typeof slug === 'string' && slug !== '' ? slug : null,
  };
  let missing = false;
  const href = template.replace(/\{(slug|id)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === null) missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? null : href;
}
