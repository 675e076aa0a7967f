import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { marked, type Token, type Tokens } from 'marked';

/** One documentation page: its path from the repository root, and its Markdown tokens. */
export interface DocPage {
  /** The path from the repository root, with `/` (`README.md`, `docs/api.md`). */
  path: string;
  tokens: Token[];
}

/** The repository's documentation: README.md and every `docs/*.md`, parsed. */
export function documentationPages(root: string): DocPage[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(root, 'docs', name));
  return [join(root, 'README.md'), ...docs].map((file) => ({
    path: relative(root, file).split('\\').join('/'),
    tokens: parseMarkdown(readFileSync(file, 'utf8')),
  }));
}

/** Markdown text as tokens (GitHub-flavoured, as GitHub shows the pages). */
export function parseMarkdown(markdown: string): Token[] {
  return marked.lexer(markdown, { gfm: true });
}

/** Every token of a page, depth first in document order (list items, tables and inline tokens too). */
export function allTokens(tokens: Token[]): Token[] {
  const seen: Token[] = [];
  marked.walkTokens(tokens, (token) => {
    seen.push(token);
  });
  return seen;
}

/** A heading's text as it reads, without its Markdown (code spans keep their text). */
export function plainText(tokens: Token[] | undefined, fallback = ''): string {
  if (!tokens) return fallback;
  return tokens
    .map((token) => {
      if ('tokens' in token && Array.isArray(token.tokens)) return plainText(token.tokens);
      return 'text' in token && typeof token.text === 'string' ? decodeEntities(token.text) : '';
    })
    .join('');
}

/** The entities marked leaves in text tokens (`&amp;`, `&#39;`...). */
function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The anchor GitHub gives a heading: lower case, everything but letters, digits, marks, `_`,
 * `-` and spaces removed, spaces made `-`; a repeated one gets `-1`, `-2`... Written here rather
 * than taken from github-slugger, which is not among the project's dependencies.
 */
export function headingSlugs(tokens: Token[]): Set<string> {
  const slugs = new Set<string>();
  const counts = new Map<string, number>();
  for (const token of allTokens(tokens)) {
    if (token.type !== 'heading') continue;
    const heading = token as Tokens.Heading;
    const base = plainText(heading.tokens, heading.text)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const seen = counts.get(base) ?? 0;
    counts.set(base, seen + 1);
    slugs.add(seen === 0 ? base : `${base}-${seen}`);
  }
  return slugs;
}
