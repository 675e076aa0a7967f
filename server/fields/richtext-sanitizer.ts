import sanitizeHtml from 'sanitize-html';
import { isMediaPath } from '../../common/media-rules.js';
import { parseRowLink, parseRowReference, ROW_LINK_ATTRIBUTE, rowLinkHref } from '../../common/richtext-rules.js';

/**
 * The allow-list of a `richtext` column: every write passes through it, whoever sends it, so the
 * database holds only these elements and attributes. Anything else is removed (an unknown element
 * keeps its text; script-like elements lose their content too).
 */
const ALLOWED_TAGS = [
  'h2',
  'h3',
  'h4',
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'hr',
  'img',
];

/** Elements whose content is dropped with them: their text is code, markup or UI, never prose. */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'noembed',
  'noframes',
  'xmp',
  'title',
  'head',
  'svg',
  'math',
];

const WHOLE_NUMBER = /^\d{1,5}$/;

/** Keeps the attributes of `names` that are small whole numbers (sizes, spans). */
function wholeNumbers(attribs: sanitizeHtml.Attributes, names: readonly string[]): sanitizeHtml.Attributes {
  const kept: sanitizeHtml.Attributes = {};
  for (const name of names) {
    const value = attribs[name]?.trim();
    if (value !== undefined && WHOLE_NUMBER.test(value)) kept[name] = value;
  }
  return kept;
}

/** Whether an image source may be kept: an upload of this server or an https address. */
function isAllowedImageSource(src: string): boolean {
  if (isMediaPath(src)) return true;
  try {
    return new URL(src).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A link's attributes: a row link in either form (`data-quire-row` as reads give it, or the stored
 * `quire://row/...` href) becomes the stored href; other `quire:` hrefs go; a target opens a new
 * window without giving it this page (`rel="noopener noreferrer"`).
 */
function linkAttributes(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const kept: sanitizeHtml.Attributes = {};
  const referenced = attribs[ROW_LINK_ATTRIBUTE] === undefined ? null : parseRowReference(attribs[ROW_LINK_ATTRIBUTE]);
  const href = attribs.href?.trim();
  if (referenced) kept.href = rowLinkHref(referenced);
  else if (href !== undefined && !/^quire:/i.test(href)) kept.href = href;
  else if (href !== undefined && parseRowLink(href)) kept.href = href;
  if (attribs.target !== undefined) {
    kept.target = '_blank';
    kept.rel = 'noopener noreferrer';
  }
  return kept;
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    ol: ['start'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'quire'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  parseStyleAttributes: false,
  transformTags: {
    h1: 'h2',
    h5: 'h4',
    h6: 'h4',
    del: 's',
    strike: 's',
    a: (_tagName, attribs) => ({ tagName: 'a', attribs: linkAttributes(attribs) }),
    img: (_tagName, attribs) => {
      const src = attribs.src?.trim() ?? '';
      const kept: sanitizeHtml.Attributes = {};
      if (isAllowedImageSource(src)) kept.src = src;
      if (attribs.alt !== undefined) kept.alt = attribs.alt;
      return { tagName: 'img', attribs: { ...kept, ...wholeNumbers(attribs, ['width', 'height']) } };
    },
    ol: (_tagName, attribs) => ({ tagName: 'ol', attribs: wholeNumbers(attribs, ['start']) }),
    th: (_tagName, attribs) => ({ tagName: 'th', attribs: wholeNumbers(attribs, ['colspan', 'rowspan']) }),
    td: (_tagName, attribs) => ({ tagName: 'td', attribs: wholeNumbers(attribs, ['colspan', 'rowspan']) }),
  },
  // An image without an allowed source is nothing; a link without an href is its text.
  exclusiveFilter: (frame) => {
    if (frame.tag === 'img') return !frame.attribs.src;
    if (frame.tag === 'a' && !frame.attribs.href) return 'excludeTag';
    return false;
  },
};

/** A rich-text body reduced to the allow-list; null when nothing is left but white space. */
export function sanitizeRichtext(html: string): string | null {
  const clean = sanitizeHtml(html, OPTIONS).trim();
  return clean === '' ? null : clean;
}
