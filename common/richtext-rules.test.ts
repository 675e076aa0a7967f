import { describe, expect, it } from 'vitest';
import { parseRowLink, parseRowReference, richtextText, rowLinkHref } from './richtext-rules.js';

describe('row links', () => {
  it('reads the type and id of a stored link and writes it back', () => {
    const target = parseRowLink('quire://row/menu-items/0190a1b2-x_y.z~');
    expect(target).toEqual({ type: 'menu-items', id: '0190a1b2-x_y.z~' });
    expect(rowLinkHref(target as { type: string; id: string })).toBe('quire://row/menu-items/0190a1b2-x_y.z~');
  });

  it('refuses shapes no type slug or row id has', () => {
    for (const href of [
      'quire://row/News/1',
      'quire://row/news/..',
      'quire://row/news/a/b',
      'quire://row/news',
      'https://x/news/1',
    ]) {
      expect(parseRowLink(href), href).toBeNull();
    }
    expect(parseRowReference('news/"onclick')).toBeNull();
  });
});

describe('richtextText', () => {
  it('gives the text of a body, a line per block, entities decoded', () => {
    const html =
      '<h2>Title &amp; more</h2><p>One <strong>bold</strong> word<br />next line</p><ul><li>a</li><li>b &lt; c</li></ul><table><tbody><tr><td>x</td><td>y</td></tr></tbody></table><p>&quot;q&quot; &#233;t&#xe9;</p>';
    expect(richtextText(html)).toBe('Title & more\nOne bold word\nnext line\na\nb < c\nx\ty\n"q" été');
  });
});
