import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkProblems } from './docs-link-check.js';
import { documentationPages, headingSlugs, parseMarkdown } from './docs-markdown.js';

const ROOT = join(import.meta.dirname, '..');

describe('the documentation links', () => {
  it('README.md and docs/*.md: every relative link names a file that exists, every anchor a heading', () => {
    const pages = documentationPages(ROOT);
    expect(pages.map((page) => page.path)).toContain('docs/api.md');
    expect(linkProblems(ROOT, pages)).toEqual([]);
  });
});

describe('linkProblems', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names a missing file, a missing anchor and an anchor on a file that is not a page', () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-docs-links-'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'notes.txt'), 'text');
    writeFileSync(
      join(dir, 'README.md'),
      '# Home\n\n[ok](docs/a.md#the-quire-command) [ok2](#home) [web](https://example.com/x#y)\n' +
        '[gone](docs/missing.md) [bad](docs/a.md#no-such) [txt](notes.txt#top) [self](#nowhere)\n',
    );
    writeFileSync(
      join(dir, 'docs', 'a.md'),
      '# A\n\n## The `quire` command\n\n| x |\n|---|\n| [up](../README.md#home) |\n',
    );
    expect(linkProblems(dir, documentationPages(dir))).toEqual([
      'README.md: docs/missing.md names docs/missing.md, which does not exist',
      'README.md: docs/a.md#no-such: docs/a.md has no heading whose anchor is #no-such',
      'README.md: notes.txt#top has an anchor, but notes.txt is not a Markdown page',
      'README.md: #nowhere: README.md has no heading whose anchor is #nowhere',
    ]);
  });
});

describe('headingSlugs', () => {
  it("makes GitHub's anchors: punctuation dropped, spaces to hyphens, repeats numbered", () => {
    const slugs = headingSlugs(
      parseMarkdown('# Team server (PostgreSQL)\n\n## Publishing: revisions & the trash\n\n## Tests\n\n## Tests\n'),
    );
    expect([...slugs]).toEqual(['team-server-postgresql', 'publishing-revisions--the-trash', 'tests', 'tests-1']);
  });
});
