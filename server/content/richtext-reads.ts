import { typeAllowed } from '../../common/access-rules.js';
import type { ContentRow } from '../../common/api-contract.js';
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
 * Makes the `richtext` columns of a read's rows what the reader sees: each row link's href becomes
 * its row's current address with `data-quire-row` naming the row (a link to a row that is gone, or
 * that the credential may not read, keeps only `data-quire-row`), then, for `format=markdown`, the
 * body as Markdown. Rows of types without `richtext` columns are left as they are.
 */
export async function presentRichtext(
  type: ContentType,
  rows: ContentRow[],
  format: RichtextFormat,
  registry: ContentTypeRegistry,
  readable: readonly string[] | null,
  lookup: RowSlugLookup,
): Promise<void> {
  const columns = type.columns.filter((column) => column.type === 'richtext').map((column) => column.name);
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
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    for (const name of columns) {
      const html = record[name];
      if (typeof html !== 'string') continue;
      const resolved = await resolveRowLinks(html, addressOf);
      record[name] = format === 'markdown' ? richtextToMarkdown(resolved) : resolved;
    }
  }
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
