import { Parser } from 'htmlparser2';

/**
 * Elements that break the text where they open and close: a reader sees their words apart
 * (`<p>one</p><p>two</p>` reads "one two", never "onetwo"). Inline elements (`b`, `a`, `code`...)
 * join their text to its neighbours as the page shows it.
 */
const BREAKING = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'img',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

/**
 * The text of rich text as a reader sees it: the HTML's text with its entities decoded, its tags,
 * attributes and comments left out, each run of whitespace one space, and a line break where a
 * block element starts or ends. What a search finds in a `richtext` value.
 */
export function richtextText(html: string): string {
  const parts: string[] = [];
  const parser = new Parser(
    {
      // Whitespace reads as one space, as a page shows it (a line break in the source, `&nbsp;`).
      ontext: (text) => parts.push(text.replace(/\s+/g, ' ')),
      onopentag: (name) => {
        if (BREAKING.has(name)) parts.push('\n');
      },
      onclosetag: (name) => {
        if (BREAKING.has(name)) parts.push('\n');
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return parts
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
}
