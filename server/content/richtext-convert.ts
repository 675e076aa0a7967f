import { gfm } from '@joplin/turndown-plugin-gfm';
import { Marked } from 'marked';
import TurndownService from 'turndown';
import { sanitizeRichtext } from '../fields/richtext-sanitizer.js';

/**
 * Between a `richtext` column's HTML and Markdown: for reads with `format=markdown` and for a
 * column whose type changes between `markdown` and `richtext`. HTML made from Markdown goes through
 * the same allow-list as any write.
 */

/** The little of a list item's DOM node the rule reads (the server has no DOM types). */
interface ListItemNode {
  parentNode: { nodeName: string; children: ArrayLike<unknown>; getAttribute(name: string): string | null } | null;
  nextSibling: unknown;
}

const markdown = new Marked({ gfm: true, async: false });

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '*',
  strongDelimiter: '**',
  hr: '---',
});
turndown.use(gfm);
// List items as most Markdown is written (`- one`, `1. first`), not turndown's padded `-   one`.
turndown.addRule('listItem', {
  filter: 'li',
  replacement(content, node) {
    const item = node as unknown as ListItemNode;
    const parent = item.parentNode;
    let prefix = '- ';
    if (parent?.nodeName === 'OL') {
      const start = Number(parent.getAttribute('start') ?? 1);
      prefix = `${start + Array.prototype.indexOf.call(parent.children, item)}. `;
    }
    const paragraph = /\n$/.test(content);
    const text = content.replace(/^\n+/, '').replace(/\n+$/, '') + (paragraph ? '\n' : '');
    return prefix + text.replace(/\n/gm, `\n${' '.repeat(prefix.length)}`) + (item.nextSibling ? '\n' : '');
  },
});

/** A Markdown text as a rich-text body (GitHub Flavored Markdown, sanitized); null when nothing is left. */
export function markdownToRichtext(source: string): string | null {
  return sanitizeRichtext(markdown.parse(source) as string);
}

/** A rich-text body as Markdown; null when it has no text. */
export function richtextToMarkdown(html: string): string | null {
  const text = turndown
    .turndown(html)
    .replace(/^[ \t]+$/gm, '')
    .trim();
  return text === '' ? null : text;
}
