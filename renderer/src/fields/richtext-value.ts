import { parseRowLink, richtextText } from '../../../common/richtext-rules.js';
import { asText } from './field-values.js';

/**
 * Whether the editor keeps a link's href: web and mail links, links within the site (a path or an
 * anchor) and links to rows. Anything else (`javascript:`, `data:`, `file:`) is not a link it makes.
 */
export function isAllowedHref(href: string): boolean {
  const value = href.trim();
  if (value === '') return false;
  if (parseRowLink(value)) return true;
  if (/^(https?:|mailto:)/i.test(value)) return true;
  // A path, an anchor or a query on this site; `//host` is another site without a scheme.
  return /^[/#?]/.test(value) && !value.startsWith('//');
}

/**
 * The href to store for what a person typed in the link dialog: as typed when it is allowed, with
 * `https://` put before a bare host name (`example.com/page`), or null when it cannot be a link.
 */
export function normalizeHref(typed: string): string | null {
  const value = typed.trim();
  if (value === '') return null;
  if (isAllowedHref(value)) return value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return null;
  if (/^[^\s/?#]+\.[^\s/?#]+/.test(value)) return `https://${value}`;
  return null;
}

/** The text of a rich-text value without its tags, on one line: for list cells and emptiness. */
export function richtextPlainText(html: unknown): string {
  return richtextText(asText(html)).replace(/\s+/g, ' ').trim();
}

/** The write-body value of a rich text: null when it has no text and no image or rule (an empty editor is `<p></p>`). */
export function richtextToBody(value: unknown): string | null {
  const html = asText(value);
  if (html.trim() === '') return null;
  if (richtextPlainText(html) !== '') return html;
  return /<(img|hr|table)\b/i.test(html) ? html : null;
}
