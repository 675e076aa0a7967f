import { ROW_LINK_ATTRIBUTE } from '../../../common/richtext-rules.js';
import { isAllowedHref } from './richtext-value.js';

/** Elements whose content is never text of the document: Word's and Google Docs' style sheets, metadata and scripts. */
const DROPPED = 'style, script, meta, link, title, xml, template, object, embed, iframe, noscript, svg, math';

/** Attributes the editor's schema reads; every other one (style, class, id, lang, data-*, on*) goes. */
const KEPT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', ROW_LINK_ATTRIBUTE],
  img: ['src', 'alt'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  ol: ['start'],
};

/** Where a pasted element's style attribute is kept while it is read (see disarmStyles). */
const PASTED_STYLE = 'data-pasted-style';

/**
 * The pasted markup with its style sheets removed and its style attributes renamed, before it is
 * parsed: a parsed style attribute or `<style>` is checked against the editor's style policy even
 * in a detached document, and every one would be reported as a violation. The renamed attribute is
 * only read (for bold and italic), then removed with every other attribute.
 */
function disarmStyles(html: string): string {
  return html
    .replace(/<style\b[\s\S]*?(<\/style\s*>|$)/gi, '')
    .replace(/<[a-z][^>]*>/gi, (tag) => tag.replace(/(\s)style(\s*=)/gi, `$1${PASTED_STYLE}$2`));
}

/** Whether a CSS declaration list makes text bold (Google Docs writes `font-weight:700` on spans). */
const isBoldStyle = (style: string) => /font-weight\s*:\s*(bold|[6-9]00)/i.test(style);
/** Whether a CSS declaration list makes text italic. */
const isItalicStyle = (style: string) => /font-style\s*:\s*italic/i.test(style);

/**
 * HTML pasted from Word, Google Docs or a web page, cleaned to what a rich text keeps: comments
 * (Word's `<!--[if …]>` blocks), style sheets, Office's namespaced elements (`<o:p>`), list bullets
 * Word draws as text (its list paragraphs become lists), and every attribute but a link's href and an image's source and alt are
 * dropped. Bold and italic given by a style (Google Docs' spans) become `<strong>` and `<em>` first,
 * so the meaning stays when the style goes. Images are kept only from the media library or https.
 */
export function cleanPastedHtml(html: string): string {
  const document = new DOMParser().parseFromString(disarmStyles(html), 'text/html');
  const body = document.body;
  for (const element of body.querySelectorAll(DROPPED)) element.remove();
  removeComments(body);
  wordLists(body);

  // Google Docs wraps a whole copy in <b style="font-weight:normal" id="docs-internal-guid-…">.
  for (const wrapper of body.querySelectorAll('b[id^="docs-internal-guid"]')) unwrap(wrapper);
  for (const element of [...body.querySelectorAll<HTMLElement>('*')]) {
    if (!element.isConnected) continue;
    const name = element.localName;
    const style = element.getAttribute(PASTED_STYLE) ?? '';
    if (name.includes(':')) {
      // Office's own elements (o:p, w:sdt, v:shape): their text stays, the element goes.
      unwrap(element);
      continue;
    }
    if (isWordMarker(element)) {
      // Word draws a list item's bullet or number as text in such a span.
      element.remove();
      continue;
    }
    if ((name === 'b' || name === 'strong') && /font-weight\s*:\s*(normal|[1-4]00)/i.test(style)) {
      unwrap(element);
      continue;
    }
    if (name === 'span' || name === 'font') {
      let replacement: HTMLElement | null = null;
      if (isBoldStyle(style)) replacement = wrapChildren(element, 'strong');
      if (isItalicStyle(style)) wrapChildren(replacement ?? element, 'em');
    }
    if (name === 'img' && !isKeptImage(element.getAttribute('src') ?? '')) {
      element.remove();
      continue;
    }
    stripAttributes(element);
    if (name === 'a' && !isAllowedHref(element.getAttribute('href') ?? '')) element.removeAttribute('href');
    if (name === 'span' || name === 'font') unwrap(element);
  }
  return body.innerHTML;
}

const isWordMarker = (element: Element) => /mso-list\s*:\s*ignore/i.test(element.getAttribute(PASTED_STYLE) ?? '');

/**
 * Word writes a list as paragraphs with an `mso-list` style, each drawing its bullet or number as
 * text: consecutive ones become one `<ul>`, or `<ol>` when the marker is a number or letter (`1.`, `a)`).
 */
function wordLists(body: HTMLElement): void {
  let list: HTMLElement | null = null;
  for (const paragraph of [...body.querySelectorAll('p')]) {
    if (!/mso-list\s*:\s*l\d/i.test(paragraph.getAttribute(PASTED_STYLE) ?? '')) {
      list = null;
      continue;
    }
    const marker = [...paragraph.querySelectorAll('span')].find(isWordMarker)?.textContent?.trim() ?? '';
    const tag = /^[\da-z]+[.)]/i.test(marker) ? 'ol' : 'ul';
    if (!list || paragraph.previousElementSibling !== list || list.localName !== tag) {
      list = body.ownerDocument.createElement(tag);
      paragraph.before(list);
    }
    const item = body.ownerDocument.createElement('li');
    item.append(...paragraph.childNodes);
    list.append(item);
    paragraph.remove();
  }
}

/** Whether a pasted image stays: one from this server's media library or from an https address. */
function isKeptImage(src: string): boolean {
  return src.startsWith('/media/') || /^https:\/\//i.test(src);
}

function stripAttributes(element: Element): void {
  const kept = KEPT_ATTRIBUTES[element.localName] ?? [];
  for (const attribute of [...element.attributes]) {
    if (!kept.includes(attribute.name)) element.removeAttribute(attribute.name);
  }
}

/** Puts an element's children into a new `tag` inside it; answers the new element. */
function wrapChildren(element: Element, tag: string): HTMLElement {
  const wrapper = element.ownerDocument.createElement(tag);
  wrapper.append(...element.childNodes);
  element.append(wrapper);
  return wrapper;
}

/** Replaces an element by its children. */
function unwrap(element: Element): void {
  element.replaceWith(...element.childNodes);
}

function removeComments(root: Node): void {
  const walker = root.ownerDocument?.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  if (!walker) return;
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
}

/**
 * The editor's own HTML made tidy for storage: table widths the table view writes as styles
 * (`min-width`, `<colgroup>`) are layout of the editing view, not content.
 */
export function tidyEditorHtml(html: string): string {
  if (!/<(table|col)\b|\sstyle=/i.test(html)) return html;
  const document = new DOMParser().parseFromString(html, 'text/html');
  for (const group of document.body.querySelectorAll('colgroup')) group.remove();
  for (const styled of document.body.querySelectorAll('[style]')) styled.removeAttribute('style');
  return document.body.innerHTML;
}
