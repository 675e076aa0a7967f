import { typeAllowed } from '../../common/access-rules.js';
import type { ColumnDescriptor, ContentRow } from '../../common/api-contract.js';
import { blockTypeOf, columnsWithin } from '../../common/block-rules.js';
import { ROW_LINK_ATTRIBUTE, type RowLinkTarget, rowReference } from '../../common/richtext-rules.js';
import { AppError } from '../errors/app-error.js';
import type { ContentType } from './content-type.js';
import type { ContentTypeRegistry } from './content-type-registry.js';
import { richtextToMarkdown } from './richtext-convert.js';

/** How a read gives `richtext` columns: as stored HTML (the default) or as Markdown. */
export type RichtextFormat = 'html' | 'markdown';

/** The `format` query parameter of a row read; a value other than `html` or `markdown` is a 400. */
export function parseRichtextFormat(raw: unknown): RichtextFormat {
  if (raw === undefined || raw === 'html') return 'html';
  if (raw === 'markdown') return 'markdown';
  throw new AppError('bad_request', 'format must be html or markdown');
}

/** The rows a row link may name, read as the credential may: the row's slug (null: it has none), or null when it cannot be read. */
export type RowSlugLookup = (type: ContentType, id: string) => Promise<{ slug: string | null } | null>;

/**
 * Stored row links as the sanitizer writes them (`href` is each link's first attribute). Sanitized
 * bodies only ever hold this form, so a pattern finds them all.
 */
const STORED_ROW_LINK = /<a href="quire:\/\/row\/([a-z0-9-]+)\/([A-Za-z0-9._~-]+)"/g;

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A row's current address: its type's `preview_path` with `{slug}` and `{id}` filled in, or
 * `/<type>/<slug>` (the id where the row has no slug).
 */
export function rowAddress(type: ContentType, id: string, slug: string | null): string {
  if (type.previewPath) {
    return type.previewPath
      .replaceAll('{slug}', encodeURIComponent(slug ?? id))
      .replaceAll('{id}', encodeURIComponent(id));
  }
  return `/${type.slug}/${encodeURIComponent(slug ?? id)}`;
}

/**
 * Makes the `richtext` columns of a read's rows, and the `richtext` fields inside their blocks at
 * any depth, what the reader sees: each row link's href becomes its row's current address with
 * `data-quire-row` naming the row (a link to a row that is gone, or that the credential may not
 * read, keeps only `data-quire-row`), then, for `format=markdown`, the body as Markdown. Rows of
 * types without rich text are left as they are.
 */
export async function presentRichtext(
  type: ContentType,
  rows: ContentRow[],
  format: RichtextFormat,
  registry: ContentTypeRegistry,
  readable: readonly string[] | null,
  lookup: RowSlugLookup,
): Promise<void> {
  const columns = type.columns.filter((column) => columnsWithin(column).some((inner) => inner.type === 'richtext'));
  if (columns.length === 0) return;
  const addresses = new Map<string, Promise<string | null>>();
  const addressOf = (target: RowLinkTarget): Promise<string | null> => {
    const key = rowReference(target);
    let address = addresses.get(key);
    if (!address) {
      const linked = registry.findBySlug(target.type);
      address =
        linked && typeAllowed(readable, linked)
          ? lookup(linked, target.id).then((found) => (found ? rowAddress(linked, target.id, found.slug) : null))
          : Promise.resolve(null);
      addresses.set(key, address);
    }
    return address;
  };
  const present = async (html: string) => {
    const resolved = await resolveRowLinks(html, addressOf);
    return format === 'markdown' ? richtextToMarkdown(resolved) : resolved;
  };
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    for (const column of columns) record[column.name] = await presentValue(record[column.name], column, present);
  }
}

/**
 * A column's read value with its rich text presented: the value itself for a `richtext` column,
 * each `richtext` field inside the blocks (a copy of each block changed) for a `blocks` column.
 */
async function presentValue(
  value: unknown,
  column: ColumnDescriptor,
  present: (html: string) => Promise<string | null>,
): Promise<unknown> {
  if (column.type === 'richtext') return typeof value === 'string' ? present(value) : value;
  if (column.type !== 'blocks' || !Array.isArray(value)) return value;
  const blocks: unknown[] = [];
  for (const item of value) {
    const block = item as Record<string, unknown> | null;
    const blockType = blockTypeOf(column, block?.type);
    if (!block || !blockType) {
      blocks.push(item);
      continue;
    }
    const presented = { ...block };
    for (const inner of blockType.columns) {
      if (Object.hasOwn(block, inner.name))
        presented[inner.name] = await presentValue(block[inner.name], inner, present);
    }
    blocks.push(presented);
  }
  return blocks;
}

/** A body with each stored row link given its address (see presentRichtext). */
async function resolveRowLinks(html: string, addressOf: (target: RowLinkTarget) => Promise<string | null>) {
  const links = [...html.matchAll(STORED_ROW_LINK)];
  if (links.length === 0) return html;
  let out = '';
  let last = 0;
  for (const link of links) {
    const target = { type: link[1], id: link[2] };
    const address = await addressOf(target);
    const reference = `${ROW_LINK_ATTRIBUTE}="${escapeAttribute(rowReference(target))}"`;
    out += html.slice(last, link.index);
    out += address === null ? `<a ${reference}` : `<a href="${escapeAttribute(address)}" ${reference}`;
    last = link.index + link[0].length;
  }
  return out + html.slice(last);
}
