import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe-check.js';
import { editorSuite } from './support/editor-harness.js';

const suite = editorSuite();

const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const rowIdFromUrl = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

/** What Word puts on the clipboard for a bold phrase, an italic word and a bulleted line. */
const WORD_FRAGMENT = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word">
<head><meta name=Generator content="Microsoft Word 15"><style>p.MsoNormal{mso-style-parent:"";font-family:Calibri}</style></head>
<body lang=EN-GB><!--StartFragment--><p class=MsoNormal style='margin:0cm;mso-line-height-alt:12pt'><b><span style='font-family:Calibri;mso-bidi-font-weight:normal'>Quarterly report</span></b><span style='color:red;mso-ansi-language:EN-GB'> is <i>ready</i></span><o:p></o:p></p>
<p class=MsoListParagraph style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>First point<o:p></o:p></p><!--EndFragment--></body></html>`;

/** Pastes HTML into the focused editor the way the browser delivers a paste. */
async function pasteHtml(editor: Locator, html: string) {
  await editor.evaluate((element, pasted) => {
    // The page's own constructors: this file is type-checked without the DOM library.
    const page = globalThis as any;
    const data = new page.DataTransfer();
    data.setData('text/html', pasted);
    data.setData('text/plain', 'Quarterly report is ready');
    element.dispatchEvent(new page.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, html);
}

describe('rich text in Chromium', () => {
  it('writes with the toolbar and shortcuts, links an address and a row, pastes Word cleaned, saves and reloads', async () => {
    const { page } = suite;
    const created = await fetch(`${suite.server.api}/cms-content`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Pages',
        columns: [
          { name: 'title', label: 'Title', type: 'text', required: true },
          { name: 'body', label: 'Body', type: 'richtext' },
        ],
      }),
    });
    expect(created.status).toBe(201);
    const news = await suite.api.create('news', {
      title: 'Harbour festival',
      status: 'published',
      published_at: '2025-06-01 10:00:00',
    });

    await page.goto(suite.url('/pages/new'));
    await page.getByLabel('Title', { exact: true }).fill('Home');
    const editor = page.getByRole('textbox', { name: 'Body', exact: true });
    await editor.click();

    // A heading by shortcut, bold by shortcut, a subheading by the toolbar.
    await page.keyboard.type('Welcome');
    await page.keyboard.press('Control+Alt+2');
    expect(await button(page, 'Heading').getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Plain and ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('bold');
    expect(await button(page, 'Bold').getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('.');
    await page.keyboard.press('Enter');
    await button(page, 'Subheading').click();
    await page.keyboard.type('Details');
    expect(await button(page, 'Subheading').getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Enter');
    await button(page, 'Italic').click();
    await page.keyboard.type('Read');
    await button(page, 'Italic').click();
    await page.keyboard.type(' the ');

    // A link to an address: a bare host gets https://.
    await page.keyboard.type('docs');
    for (let step = 0; step < 4; step++) await page.keyboard.press('Shift+ArrowLeft');
    await button(page, 'Link').click();
    const linkDialog = page.getByRole('dialog', { name: 'Link' });
    await linkDialog.getByLabel('Address').fill('example.com/docs');
    await button(linkDialog, 'Apply').click();
    await editor.locator('a[href="https://example.com/docs"]').waitFor();
    expect(await button(page, 'Link').getAttribute('aria-pressed')).toBe('true');

    // A link to a row, picked by its title.
    await page.keyboard.press('End');
    await page.keyboard.type(' and ');
    await button(page, 'Link to a row').click();
    const rowDialog = page.getByRole('dialog', { name: 'Link to a row' });
    // The content type by keyboard: the dialog opens on it, Enter opens its list, a letter moves, Enter picks.
    const typeChooser = rowDialog.getByRole('combobox', { name: 'Content type' });
    await expect
      .poll(() => typeChooser.evaluate((element) => element === element.ownerDocument.activeElement))
      .toBe(true);
    await page.keyboard.press('Enter');
    const typeList = page.getByRole('listbox');
    await typeList.waitFor();
    await page.keyboard.press('n');
    const newsOption = typeList.getByRole('option', { name: 'News', exact: true });
    await expect.poll(() => newsOption.getAttribute('data-highlighted')).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await typeList.waitFor({ state: 'detached' });
    await expect.poll(() => typeChooser.textContent()).toBe('News');
    expect(await seriousViolations(page)).toEqual([]);
    await rowDialog.getByLabel('Harbour festival').check();
    await button(rowDialog, 'Link').click();
    await editor.locator(`a[href="quire://row/news/${news.id}"]`).waitFor();

    // Word's clipboard: its text, emphasis and list arrive, its styles, classes and Office markup do not.
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await pasteHtml(editor, WORD_FRAGMENT);
    await editor.getByText('First point').waitFor();

    // Undo and redo take the paste back and bring it again.
    await button(page, 'Undo').click();
    await expect.poll(() => editor.getByText('First point').count()).toBe(0);
    await button(page, 'Redo').click();
    await editor.getByText('First point').waitFor();

    await button(page, 'Save').click();
    await page.waitForURL(/\/pages\/rows\/[^/?]+$/);
    const id = rowIdFromUrl(page);
    const body = String((await suite.api.get('pages', id)).row?.body ?? '');
    expect(body).toContain('<h2>Welcome</h2>');
    expect(body).toContain('<p>Plain and <strong>bold</strong>.</p>');
    expect(body).toContain('<h3>Details</h3>');
    expect(body).toContain('<em>Read</em> the <a href="https://example.com/docs">docs</a>');
    expect(body).toContain(`data-quire-row="news/${news.id}"`);
    expect(body).toContain('Harbour festival</a>');
    expect(body).toMatch(/<strong>Quarterly report<\/strong> is <em>ready<\/em>/);
    expect(body).toMatch(/<ul><li>(<p>)?First point(<\/p>)?<\/li><\/ul>/);
    for (const junk of ['mso', 'style=', 'class=', '<o:p', '<span', 'Calibri', '·', 'supportLists', 'MsoNormal']) {
      expect(body, junk).not.toContain(junk);
    }

    // Reloaded, the editor shows what was saved, the row link still pointing at its row.
    await page.reload();
    const reloaded = page.getByRole('textbox', { name: 'Body', exact: true });
    await reloaded.getByRole('heading', { name: 'Welcome', level: 2 }).waitFor();
    expect(await reloaded.locator('strong').first().textContent()).toBe('bold');
    // Loading the saved HTML changes nothing: the form is not dirty.
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    expect(await reloaded.locator(`a[data-quire-row="news/${news.id}"]`).textContent()).toBe('Harbour festival');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
