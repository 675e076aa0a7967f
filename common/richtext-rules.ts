/**
 * Links from a rich-text body to another row. Storage names the row by its type's slug and its id,
 * `quire://row/<type>/<id>`, so the link follows the row whatever its slug becomes; reads give the
 * row's current address and keep the reference in `data-quire-row="<type>/<id>"`, which a write
 * turns back into the stored form.
 */

/** The scheme and host every stored row link starts with. */
export const ROW_LINK_PREFIX = 'quire://row/';

/** The attribute a read's row link carries: `<type>/<id>`. */
export const ROW_LINK_ATTRIBUTE = 'data-quire-row';

/** A row a link points at. */
export interface RowLinkTarget {
  type: string;
  id: string;
}

const TYPE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ROW_ID = /^[A-Za-z0-9._~-]{1,128}$/;

/** `<type>/<id>` as a target, or null when either part has a shape no type slug or row id has. */
export function parseRowReference(reference: string): RowLinkTarget | null {
  const slash = reference.indexOf('/');
  if (slash < 0) return null;
  const type = reference.slice(0, slash);
  const id = reference.slice(slash + 1);
  if (!TYPE_SLUG.test(type) || !ROW_ID.test(id) || id === '.' || id === '..') return null;
  return { type, id };
}

/** The target of a stored row link, or null for any other href. */
export function parseRowLink(href: string): RowLinkTarget | null {
  return href.startsWith(ROW_LINK_PREFIX) ? parseRowReference(href.slice(ROW_LINK_PREFIX.length)) : null;
}

/** The stored href of a link to a row. */
export function rowLinkHref(target: RowLinkTarget): string {
  return `${ROW_LINK_PREFIX}${target.type}/${target.id}`;
}

/** The `data-quire-row` value of a link to a row. */
export function rowReference(target: RowLinkTarget): string {
  return `${target.type}/${target.id}`;
}

/** Elements that end a line of text: blocks, list items, table rows, line breaks. */
const LINE_END = /<\/(?:p|h[1-6]|li|blockquote|pre|tr|table)>|<(?:br|hr)\s*\/?>/gi;
const CELL_END = /<\/t[hd]>/gi;
const TAG = /<[^>]*>/g;
const ENTITY = /&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos|nbsp));/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * The text of a stored (sanitized) rich-text body, one line per block, without its tags: what
 * revisions compare. Sanitized bodies hold only well-formed tags and escaped text, so no parser is
 * needed.
 */
export function richtextText(html: string): string {
  return html
    .replace(LINE_END, '\n')
    .replace(CELL_END, '\t')
    .replace(TAG, '')
    .replace(ENTITY, (_entity, decimal: string, hex: string, name: string) =>
      decimal
        ? String.fromCodePoint(Number(decimal))
        : hex
          ? String.fromCodePoint(parseInt(hex, 16))
          : NAMED[name.toLowerCase()],
    )
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}
