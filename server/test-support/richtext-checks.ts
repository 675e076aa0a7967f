import { createRequire } from 'node:module';
import { isMediaPath } from '../../common/media-rules.js';
import { parseRowLink } from '../../common/richtext-rules.js';

/** The little of a DOM element the checks read (jsdom ships no types of its own). */
interface ParsedElement {
  tagName: string;
  attributes: Iterable<{ name: string; value: string }>;
  getAttribute(name: string): string | null;
}
interface ParsedBody {
  innerHTML: string;
  querySelectorAll(selector: string): Iterable<ParsedElement>;
}
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => { window: { document: { createElement(tag: string): ParsedBody } } };
};

const ALLOWED: Record<string, readonly string[]> = {
  h2: [],
  h3: [],
  h4: [],
  p: [],
  br: [],
  strong: [],
  b: [],
  em: [],
  i: [],
  s: [],
  a: ['href', 'target', 'rel', 'data-quire-row'],
  ul: [],
  ol: ['start'],
  li: [],
  blockquote: [],
  code: [],
  pre: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
  hr: [],
  img: ['src', 'alt', 'width', 'height'],
};

/** Whether a link's href is one a rich-text body may hold (or a read may give). */
function isAllowedHref(href: string): boolean {
  if (parseRowLink(href)) return true;
  if (/^(?:https?:|mailto:)/i.test(href)) return true;
  return !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('//');
}

/**
 * What is wrong with a stored rich-text body, as a browser parses it: elements and attributes off
 * the allow-list, hrefs and image sources of other schemes. Empty when it is harmless.
 */
export function richtextViolations(html: string): string[] {
  const { document } = new JSDOM('').window;
  const body = document.createElement('body');
  body.innerHTML = html;
  const found: string[] = [];
  for (const element of body.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    const attributes = ALLOWED[tag];
    if (!attributes) {
      found.push(`element <${tag}>`);
      continue;
    }
    for (const { name, value } of element.attributes) {
      if (!attributes.includes(name)) found.push(`attribute ${name} on <${tag}>`);
      if (name === 'href' && !isAllowedHref(value)) found.push(`href ${value}`);
      if (name === 'src' && !(value.startsWith('https://') || isMediaPath(value))) found.push(`src ${value}`);
      if (name === 'target' && element.getAttribute('rel') !== 'noopener noreferrer') found.push('target without rel');
    }
  }
  return found;
}
