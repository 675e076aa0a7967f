import { createRequire } from 'node:module';
import createDOMPurify, { type Config, type DOMPurify, type WindowLike } from 'dompurify';
import { AppError } from '../errors/app-error.js';

/**
 * Cleans an uploaded SVG so that nothing in it can run or reach anything, wherever it is shown
 * (opened directly, in an `<img>`, inlined by a site): DOMPurify with its SVG profiles does the
 * element and attribute allow-list (no `<script>`, event handlers, `<foreignObject>`, `<animate>`
 * or `<set>` retargeting `href`), on a document parsed as XML by jsdom; the hooks here go further
 * and keep only same-document references: every `href`/`xlink:href` and every CSS `url()` must be
 * a `#fragment` (no `http:`, `data:`, `javascript:` nor relative files), and CSS `@import` or
 * `expression(` drops the style it is in. A DOCTYPE with declarations of its own (entities: the
 * billion laughs) is refused before parsing; a plain one (`<!DOCTYPE svg PUBLIC ...>`) is dropped.
 * What is left is serialized as XML, so the stored bytes are exactly what was checked.
 *
 * jsdom is loaded on the first SVG upload only: it is large and the server starts without it.
 */

/** Largest SVG accepted: a drawing, not a data dump; the parse holds the whole document in memory. */
export const MAX_SVG_BYTES = 1024 * 1024;

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** The little of a jsdom element this file reads (jsdom ships no types of its own; the server has no DOM lib). */
interface SvgElement {
  localName: string;
  namespaceURI: string | null;
  childElementCount: number;
  textContent: string | null;
  attributes?: ArrayLike<SvgAttribute> & Iterable<SvgAttribute>;
  removeAttributeNode(attribute: SvgAttribute): unknown;
  getElementsByTagNameNS(namespace: string, name: string): { length: number };
}
interface SvgAttribute {
  name: string;
  value: string;
}
interface SvgWindow {
  DOMParser: new () => { parseFromString(text: string, type: string): { documentElement: SvgElement | null } };
  XMLSerializer: new () => { serializeToString(node: SvgElement): string };
}

let loaded: { window: SvgWindow; purify: DOMPurify } | null = null;

function svgTools(): { window: SvgWindow; purify: DOMPurify } {
  if (!loaded) {
    const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
      JSDOM: new (html: string) => { window: SvgWindow & WindowLike };
    };
    const { window } = new JSDOM('<!DOCTYPE html>');
    const purify = createDOMPurify(window);
    purify.addHook('afterSanitizeAttributes', (node) => keepOnlyLocalReferences(node as unknown as SvgElement));
    purify.addHook('uponSanitizeElement', (node, data) => {
      if (data.tagName === 'style' && isDangerousCss(node.textContent ?? '')) node.textContent = '';
    });
    loaded = { window, purify };
  }
  return loaded;
}

const PURIFY_CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true },
  // Never allowed whatever the profiles say: each can load or run something, or carry HTML.
  FORBID_TAGS: ['script', 'foreignObject', 'iframe', 'embed', 'object', 'animate', 'set', 'handler', 'listener'],
  // `<use>` is left out of DOMPurify's profile for what it can fetch; with only `#id` references left it draws a local shape.
  ADD_TAGS: ['use'],
  // A removed element goes with what is in it: a script under a prefix or in another namespace leaves no text behind.
  KEEP_CONTENT: false,
  IN_PLACE: true,
  SAFE_FOR_XML: true,
};

/** `url(...)` in CSS or a presentation attribute, with what it names. */
const CSS_URL = /url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/gi;

/** Whether CSS text can load or run something: a `url()` not naming a fragment, `@import`, `expression(`. */
function isDangerousCss(css: string): boolean {
  // CSS escapes (`\75 rl(`) and comments could hide a keyword from the checks below.
  if (/\\|\/\*/.test(css)) return true;
  if (/@import|expression\s*\(|behavior\s*:|-moz-binding|javascript:/i.test(css)) return true;
  for (const match of css.matchAll(CSS_URL)) if (!match[2].trim().startsWith('#')) return true;
  // A `url(` the pattern above did not read (unbalanced) is refused as well.
  return (css.match(/url\s*\(/gi)?.length ?? 0) !== [...css.matchAll(CSS_URL)].length;
}

/** Drops every reference that leaves the document, keeping `#id` ones (gradients, `<use>`, clip paths). */
function keepOnlyLocalReferences(node: SvgElement): void {
  if (!node.attributes) return;
  for (const attribute of [...node.attributes]) {
    const name = attribute.name.toLowerCase();
    const value = attribute.value;
    const isReference = name === 'href' || name.endsWith(':href') || name === 'src';
    if (isReference && !value.trim().startsWith('#')) node.removeAttributeNode(attribute);
    else if ((name === 'style' || /url\s*\(/i.test(value)) && isDangerousCss(value))
      node.removeAttributeNode(attribute);
  }
}

/**
 * The SVG `text` cleaned, as XML text (its size is checked before it is read: MAX_SVG_BYTES).
 * Refused: a text that is not well-formed XML or declares entities (400), a document whose root
 * is not an SVG `<svg>` element (415), and one that draws nothing once cleaned (400: it was all
 * script, and an empty drawing has no size to show or resize).
 */
export function sanitizeSvg(text: string): string {
  const { window, purify } = svgTools();
  const source = text.replace(/^\uFEFF/, '');
  // Checked on the text: the parser would expand the entities a DOCTYPE declares before anything else.
  if (/<!ENTITY/i.test(source) || /<!DOCTYPE[^>[]*\[/i.test(source)) {
    throw new AppError(
      'bad_request',
      'The SVG declares entities in a DOCTYPE, which is not accepted; remove the DOCTYPE',
    );
  }
  const document = new window.DOMParser().parseFromString(source, 'image/svg+xml');
  const root = document.documentElement;
  if (!root || root.getElementsByTagNameNS('*', 'parsererror').length > 0 || root.localName === 'parsererror') {
    throw new AppError('bad_request', 'The SVG is not well-formed XML; fix or re-export it and upload it again');
  }
  if (root.namespaceURI !== SVG_NAMESPACE || root.localName !== 'svg') {
    throw new AppError(
      'unsupported_media_type',
      'The file is XML but not an SVG image (its root must be <svg xmlns="http://www.w3.org/2000/svg">)',
    );
  }
  purify.sanitize(root as unknown as Parameters<DOMPurify['sanitize']>[0], PURIFY_CONFIG);
  // The root stays (IN_PLACE cleans inside it); its own references were checked by the hook too.
  if (root.childElementCount === 0) {
    throw new AppError(
      'bad_request',
      'The SVG draws nothing once its script and outside references are removed; upload the drawing itself',
    );
  }
  const serialized = new window.XMLSerializer().serializeToString(root);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialized}\n`;
}
