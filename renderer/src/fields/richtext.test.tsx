import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { shortcutKeys } from '../components/keyboard-shortcuts.js';
import { fakeApi, WithApi } from '../test-support/fake-api.js';
import { richtextField } from './RichtextField.js';
import { RichtextEditor } from './richtext-editor.js';
import { cleanPastedHtml, tidyEditorHtml } from './richtext-paste.js';
import { RICHTEXT_SHORTCUTS } from './richtext-toolbar.js';
import { isAllowedHref, normalizeHref, richtextPlainText, richtextToBody } from './richtext-value.js';

const SHORTCUTS_MISSING = { key: '', place: 'richtext' } as const;
const body: ColumnDescriptor = { name: 'body', label: 'Body', type: 'richtext', required: false };

describe('pasted HTML', () => {
  it('keeps the text, bold and italic of Word and drops its styles, classes, comments and Office markup', () => {
    const word = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta name=Generator content="Microsoft Word 15">
      <style>p.MsoNormal{mso-style-parent:"";font-family:Calibri}</style></head><body lang=EN-GB><!--StartFragment-->
      <p class=MsoNormal style='margin:0cm;mso-line-height-alt:12pt'><b><span style='font-family:Calibri'>Report</span></b>
      <span style='color:red'> is <i>ready</i></span><o:p></o:p></p>
      <p class=MsoListParagraph style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>·<span
      style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;</span></span><![endif]>First point<o:p></o:p></p><!--EndFragment--></body></html>`;
    const cleaned = cleanPastedHtml(word);
    expect(cleaned).toMatch(/<p><b>Report<\/b>\s* is <i>ready<\/i><\/p>/);
    expect(cleaned).toMatch(/<ul><li>First point<\/li><\/ul>/);
    for (const junk of ['mso', 'style', 'class', 'o:p', '<span', 'Calibri', '·', 'lang=', '<meta', '<!--']) {
      expect(cleaned, junk).not.toContain(junk);
    }
  });

  it('makes Word’s list paragraphs lists, numbered when their marker is a number', () => {
    const item = (marker: string, text: string, level = 'l0') =>
      `<p class=MsoListParagraphCxSpMiddle style='mso-list:${level} level1 lfo1'><span style='mso-list:Ignore'>${marker}<span style='font:7.0pt "Times New Roman"'>&nbsp; </span></span>${text}</p>`;
    const pasted = `${item('1.', 'One')}\n${item('2.', 'Two')}<p class=MsoNormal>Between</p>${item('·', 'Dot', 'l1')}${item('o', 'Circle', 'l1')}`;
    expect(cleanPastedHtml(pasted)).toBe(
      '<ol><li>One</li><li>Two</li></ol>\n<p>Between</p><ul><li>Dot</li><li>Circle</li></ul>',
    );
  });

  it('turns Google Docs’ styled spans into strong and em and unwraps its non-bold wrapper', () => {
    const docs =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1a2b"><p dir="ltr" style="line-height:1.38">' +
      '<span style="font-size:11pt;font-weight:700">Bold</span> <span style="font-style:italic">slanted</span>' +
      ' <span style="font-weight:400">plain</span></p></b>';
    expect(cleanPastedHtml(docs)).toBe('<p><strong>Bold</strong> <em>slanted</em> plain</p>');
  });

  it('drops script, handlers, javascript: links and images from outside the media library and https', () => {
    const hostile =
      '<p onclick="alert(1)">Hi <a href="javascript:alert(1)">there</a> <a href="https://example.com" target="_blank">ok</a></p>' +
      '<script>alert(1)</script><img src="data:image/png;base64,AAAA" onerror="alert(1)"><img src="/media/2025/01/a.png" alt="A">' +
      '<img src="file:///C:/Users/me/clip.png"><iframe src="https://evil.example"></iframe>';
    expect(cleanPastedHtml(hostile)).toBe(
      '<p>Hi <a>there</a> <a href="https://example.com">ok</a></p><img src="/media/2025/01/a.png" alt="A">',
    );
  });

  it('keeps a row link’s data-quire-row, which a write turns back into the stored form', () => {
    expect(cleanPastedHtml('<a href="/news/old" data-quire-row="news/7" class="x">News</a>')).toBe(
      '<a href="/news/old" data-quire-row="news/7">News</a>',
    );
  });

  it('tidies the editor’s own table widths away', () => {
    expect(
      tidyEditorHtml(
        '<table style="min-width: 75px"><colgroup><col style="min-width:25px"></colgroup><tbody></tbody></table>',
      ),
    ).toBe('<table><tbody></tbody></table>');
    expect(tidyEditorHtml('<p>plain</p>')).toBe('<p>plain</p>');
  });
});

describe('rich-text values', () => {
  it('allows web, mail, site and row links and nothing else', () => {
    for (const href of [
      'https://a.example',
      'http://a.example',
      'mailto:a@b.example',
      '/about',
      '#top',
      'quire://row/news/7',
    ]) {
      expect(isAllowedHref(href), href).toBe(true);
    }
    for (const href of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,x',
      '//evil.example',
      'file:///x',
      '',
    ]) {
      expect(isAllowedHref(href), href).toBe(false);
    }
    expect(normalizeHref('example.com/docs')).toBe('https://example.com/docs');
    expect(normalizeHref('  /about ')).toBe('/about');
    expect(normalizeHref('javascript:alert(1)')).toBeNull();
    expect(normalizeHref('just words')).toBeNull();
  });

  it('reads as text without tags, and an empty document clears the field', () => {
    expect(richtextPlainText('<h2>Title</h2><p>One <strong>two</strong></p><ul><li>three</li></ul>')).toBe(
      'Title One two three',
    );
    expect(richtextToBody('<p></p>')).toBeNull();
    expect(richtextToBody('')).toBeNull();
    expect(richtextToBody('<p><img src="/media/a.png" alt="A"></p>')).toBe('<p><img src="/media/a.png" alt="A"></p>');
    expect(richtextField.toBody('<p>Hi</p>', body)).toBe('<p>Hi</p>');
  });

  it('names TipTap’s keys as the keyboard prints them', () => {
    expect(shortcutKeys(RICHTEXT_SHORTCUTS.heading2 ?? SHORTCUTS_MISSING, 'Strg')).toEqual(['Strg', 'Alt', '2']);
    expect(shortcutKeys(RICHTEXT_SHORTCUTS.redo ?? SHORTCUTS_MISSING, '⌘')).toEqual(['⌘', '⇧', 'Z']);
  });
});

describe('the rich-text editor', () => {
  function renderEditor(value: string, disabled = false) {
    const onChange = vi.fn();
    render(
      <WithApi api={fakeApi([])}>
        <fieldset disabled={disabled}>
          <RichtextEditor
            column={body}
            id="field-body"
            value={value}
            onChange={onChange}
            describedBy={undefined}
            invalid={false}
          />
        </fieldset>
      </WithApi>,
    );
    return onChange;
  }

  it('shows the value with toolbar toggles that say whether they are on', async () => {
    renderEditor('<h2>Welcome</h2><p>Text</p>');
    const editor = await screen.findByRole('textbox', { name: 'Body' });
    expect(editor.id).toBe('field-body');
    expect(editor.getAttribute('contenteditable')).toBe('true');
    expect(editor.querySelector('h2')?.textContent).toBe('Welcome');
    for (const name of ['Heading', 'Bold', 'Italic', 'Bulleted list', 'Quote', 'Link', 'Link to a row']) {
      expect(screen.getByRole('button', { name }).getAttribute('aria-pressed'), name).not.toBeNull();
    }
    for (const name of ['Image', 'Insert table', 'Horizontal line', 'Undo', 'Redo']) {
      expect(screen.getByRole('button', { name })).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'Bold' }).title).toBe('Bold (Ctrl+B)');
  });

  it('is read-only inside a disabled fieldset', async () => {
    renderEditor('<p>Locked</p>', true);
    const editor = await screen.findByRole('textbox', { name: 'Body' });
    await waitFor(() => expect(editor.getAttribute('contenteditable')).toBe('false'));
    expect(screen.getByRole('button', { name: 'Bold' }).matches(':disabled')).toBe(true);
  });
});
