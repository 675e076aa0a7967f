import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { Tokens } from 'marked';
import { allTokens, type DocPage, headingSlugs, parseMarkdown } from './docs-markdown.js';

/** Links to other sites (`https:`, `mailto:`...) are not followed. */
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * What is wrong with the relative links of these pages, one sentence each: a file that does not
 * exist, or an `#anchor` that no heading of its target page makes (GitHub's heading slugs).
 */
export function linkProblems(root: string, pages: DocPage[]): string[] {
  const slugsOf = new Map<string, Set<string>>();
  const slugs = (path: string): Set<string> => {
    let known = slugsOf.get(path);
    if (!known) {
      known = headingSlugs(parseMarkdown(readFileSync(join(root, path), 'utf8')));
      slugsOf.set(path, known);
    }
    return known;
  };
  const problems: string[] = [];
  for (const page of pages) {
    for (const token of allTokens(page.tokens)) {
      if (token.type !== 'link' && token.type !== 'image') continue;
      const href = (token as Tokens.Link | Tokens.Image).href;
      if (EXTERNAL.test(href)) continue;
      const hash = href.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? href : href.slice(0, hash));
      const anchor = hash === -1 ? null : decodeURIComponent(href.slice(hash + 1));
      const target = pathPart === '' ? page.path : posix.normalize(posix.join(dirname(page.path), pathPart));
      if (target.startsWith('../') || !existsSync(join(root, target))) {
        problems.push(`${page.path}: ${href} names ${target}, which does not exist`);
        continue;
      }
      if (anchor === null) continue;
      if (!target.endsWith('.md') || statSync(join(root, target)).isDirectory()) {
        problems.push(`${page.path}: ${href} has an anchor, but ${target} is not a Markdown page`);
      } else if (!slugs(target).has(anchor)) {
        problems.push(`${page.path}: ${href}: ${target} has no heading whose anchor is #${anchor}`);
      }
    }
  }
  return problems;
}
