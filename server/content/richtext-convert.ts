import { gfm } from '@joplin/turndown-plugin-gfm';
import { Marked } from 'marked';
import TurndownService from 'turndown';
import { sanitizeRichtext } from '../fields/richtext-sanitizer.js';

/**
 * Between a `richtext` column's HTML and Markdown: for reads with `format=markdown` and for a
 * column whose type changes between `markdown` and `richtext`. HTML made from Markdown goes through
 * the same allow-list as any write.
 */

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

/** A Markdown text as a rich-text body (GitHub Flavored Markdown, sanitized); null when nothing is left. */
export function markdownToRichtext(source: string): string | null {
  return sanitizeRichtext(markdown.parse(source) as string);
}

/** A rich-text body as Markdown; null when it has no text. */
export function richtextToMarkdown(html: string): string | null {
  const text = turndown.turndown(html).trim();
  return text === '' ? null : text;
}
