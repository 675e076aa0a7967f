import { createRequire } from 'node:module';

/**
 * The SVG cleaning itself, run in the cleaning worker (svg-clean-worker.ts), never on the server's
 * own thread: DOMPurify's allow-list on a document jsdom parses as XML, plus hooks that keep only
 * same-document references (svg-sanitizer.ts describes what is refused and why).
 */

/** A jsdom or DOMPurify value: jsdom ships no types, and the server has no DOM lib. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = any;

/** What cleaning gave: the cleaned text, or why the file is refused. */
export type SvgCleaning = { svg: string } | { refused: 'entities' | 'not_well_formed' | 'not_svg' | 'draws_nothing' };

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const CSS_URL = /url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/gi;

/**
 * CSS that can load or run something: a url() not naming a fragment, @import, expression(...;
 * escapes and comments could hide a keyword from these checks, so they count too.
 */
function isDangerousCss(css: string): boolean {
  if (/\\|\/\*/.test(css)) return true;
  if (/@import|expression\s*\(|behavior\s*:|-moz-binding|javascript:/i.test(css)) return true;
  const urls = [...css.matchAll(CSS_URL)];
  if (urls.some((match) => !match[2].trim().startsWith('#'))) return true;
  return (css.match(/url\s*\(/gi)?.length ?? 0) !== urls.length;
}

/** The window and purifier, made on the first SVG and kept for the next. */
const cache: { purify?: Loose; window?: Loose } = {};

/**
 * Cleans `text` (see svg-sanitizer.ts for the rules). jsdom and DOMPurify are found as packages
 * beside this module, not bundled: jsdom reads files of its own at run time.
 */
export function cleanSvgText(text: string): SvgCleaning {
  if (!cache.purify) {
    const packages = createRequire(import.meta.url);
    const { JSDOM } = packages('jsdom');
    const createDOMPurify = packages('dompurify');
    const { window } = new JSDOM('<!DOCTYPE html>');
    const purify = createDOMPurify(window);
    // Only references inside the document stay (gradients, <use>, clip paths by #id).
    purify.addHook('afterSanitizeAttributes', (node: Loose) => {
      for (const attribute of [...(node.attributes ?? [])]) {
        const name = attribute.name.toLowerCase();
        const isReference = name === 'href' || name.endsWith(':href') || name === 'src';
        if (isReference && !attribute.value.trim().startsWith('#')) node.removeAttributeNode(attribute);
        else if ((name === 'style' || /url\s*\(/i.test(attribute.value)) && isDangerousCss(attribute.value)) {
          node.removeAttributeNode(attribute);
        }
      }
    });
    purify.addHook('uponSanitizeElement', (node: Loose, data: Loose) => {
      if (data.tagName === 'style' && isDangerousCss(node.textContent ?? '')) node.textContent = '';
    });
    cache.window = window;
    cache.purify = purify;
  }
  const source = text.replace(/^\uFEFF/, '');
  // Checked on the text: the parser would expand the entities a DOCTYPE declares before anything else.
  if (/<!ENTITY/i.test(source) || /<!DOCTYPE[^>[]*\[/i.test(source)) return { refused: 'entities' };
  const document = new cache.window.DOMParser().parseFromString(source, 'image/svg+xml');
  const root = document.documentElement;
  if (!root || root.localName === 'parsererror' || root.getElementsByTagNameNS('*', 'parsererror').length > 0) {
    return { refused: 'not_well_formed' };
  }
  if (root.namespaceURI !== SVG_NAMESPACE || root.localName !== 'svg') return { refused: 'not_svg' };
  cache.purify.sanitize(root, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // Never allowed whatever the profiles say: each can load or run something, or carry HTML.
    FORBID_TAGS: ['script', 'foreignObject', 'iframe', 'embed', 'object', 'animate', 'set', 'handler', 'listener'],
    // `<use>` is left out of the profile for what it can fetch; with only #id references it draws a local shape.
    ADD_TAGS: ['use'],
    // A removed element goes with what is in it: a script under a prefix or in another namespace leaves no text.
    KEEP_CONTENT: false,
    IN_PLACE: true,
    SAFE_FOR_XML: true,
  });
  // The root stays (IN_PLACE cleans inside it); its own attributes were checked by the hook too.
  if (root.childElementCount === 0) return { refused: 'draws_nothing' };
  return {
    svg: `<?xml version="1.0" encoding="UTF-8"?>\n${new cache.window.XMLSerializer().serializeToString(root)}\n`,
  };
}
