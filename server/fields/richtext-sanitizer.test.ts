import { describe, expect, it } from 'vitest';
import { richtextViolations } from '../test-support/richtext-checks.js';
import { XSS_PAYLOADS } from '../test-support/xss-payloads.js';
import { sanitizeRichtext } from './richtext-sanitizer.js';

const media = '/media/2026/11/01a2044d-71da-7029-9f40-4aee790ee7d1.png';

describe('rich-text sanitizer', () => {
  it('is checked by a check that sees what a browser would run', () => {
    expect(richtextViolations('<img src="x" onerror="a()"><a href="javascript:a()">x</a><svg></svg>')).toEqual([
      'src x',
      'attribute onerror on <img>',
      'href javascript:a()',
      'element <svg>',
    ]);
  });

  it.each(XSS_PAYLOADS)('leaves nothing runnable of %s', (payload) => {
    const clean = sanitizeRichtext(payload) ?? '';
    expect(richtextViolations(clean)).toEqual([]);
    expect(clean).not.toMatch(/javascript:|vbscript:|data:|<script|\bon[a-z]+=|style=|__xss=1"/i);
  });

  it('is stable: a sanitized body sanitizes to itself', () => {
    for (const payload of XSS_PAYLOADS) {
      const clean = sanitizeRichtext(payload);
      expect(clean === null ? null : sanitizeRichtext(clean)).toBe(clean);
    }
  });

  it('keeps every element of the allow-list and their allowed attributes', () => {
    const html = [
      '<h2>Two</h2><h3>Three</h3><h4>Four</h4>',
      '<p>A <strong>bold</strong> <b>b</b> <em>it</em> <i>i</i> <s>gone</s><br />line</p>',
      '<ul><li>one</li></ul><ol><li>two</li></ol><ol start="3"><li>three</li></ol>',
      '<blockquote><p>quoted</p></blockquote><pre><code>x &lt; y</code></pre><hr />',
      '<table><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td rowspan="1">c</td></tr></tbody></table>',
      `<p><a href="https://example.com/a?b=1">web</a> <a href="mailto:a@example.com">mail</a> <a href="/about">local</a></p>`,
      `<p><img src="${media}" alt="A cat" width="640" height="480" /><img src="https://cdn.example.com/x.png" alt="" /></p>`,
    ].join('');
    expect(sanitizeRichtext(html)).toBe(html);
  });

  it('maps other heading levels into h2-h4 and drops styles, classes and unknown elements but not their text', () => {
    expect(sanitizeRichtext('<h1 class="t" style="color:red">Title</h1><h6>Small</h6>')).toBe(
      '<h2>Title</h2><h4>Small</h4>',
    );
    expect(sanitizeRichtext('<div><span style="font-weight:700">Word</span> <o:p></o:p>text</div>')).toBe('Word text');
  });

  it('adds rel noopener to links that open a window, and keeps only _blank', () => {
    expect(sanitizeRichtext('<a href="https://a.example" target="_top" rel="opener">x</a>')).toBe(
      '<a href="https://a.example" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  it('keeps images only from uploads or https', () => {
    expect(sanitizeRichtext('<img src="http://a.example/x.png"><img src="/media/../etc/passwd">')).toBeNull();
    expect(sanitizeRichtext('<img src="https://a.example/x.png" width="50%">')).toBe(
      '<img src="https://a.example/x.png" />',
    );
  });

  it('stores links to rows as quire://row/<type>/<id>, from either form', () => {
    expect(sanitizeRichtext('<a href="/news/old-slug" data-quire-row="news/0190a1b2">n</a>')).toBe(
      '<a href="quire://row/news/0190a1b2">n</a>',
    );
    expect(sanitizeRichtext('<a href="quire://row/news/0190a1b2">n</a>')).toBe(
      '<a href="quire://row/news/0190a1b2">n</a>',
    );
    expect(sanitizeRichtext('<a href="quire://row/News/..">n</a><a href="quire://other">o</a>')).toBe('no');
  });

  it('reads an empty body as no value', () => {
    expect(sanitizeRichtext('  <script>x</script> ')).toBeNull();
  });
});
