import { describe, expect, it } from 'vitest';
import { editorSuite } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

/**
 * The editor's own language in Chromium: chosen in the sidebar, it changes the screen at once,
 * marks the document, and is remembered on this machine; a browser that prefers a language the
 * editor speaks starts in it.
 */

const suite = editorSuite();

describe('the editor’s language', () => {
  it('switches the list to German from the sidebar and keeps it after a reload', async () => {
    const { page } = suite;
    await suite.api.create('news', { title: 'Hafenfest', status: 'published', published_at: '2025-05-01 12:00:00' });
    await page.goto(suite.url('/news'));
    await page.getByRole('button', { name: 'New', exact: true }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');

    await chooseOption(page.getByLabel('Language', { exact: true }), 'Deutsch');
    await page.getByRole('button', { name: 'Neu', exact: true }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.getByRole('link', { name: 'Zuletzt gelöscht' }).count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Inhaltstypen' }).count()).toBe(1);
    expect(await page.getByLabel('Einträge pro Seite', { exact: true }).count()).toBe(1);
    expect(await page.locator('.pagination-summary').textContent()).toBe('1–1 von 1');
    expect(await page.locator('tbody tr').first().textContent()).toContain('gerade eben');

    await page.reload();
    await page.getByRole('button', { name: 'Neu', exact: true }).waitFor();
    expect(await page.getByLabel('Sprache', { exact: true }).textContent()).toBe('Deutsch');
  });

  it('starts in the browser’s language when the editor speaks it', async () => {
    const context = await suite.browser.newContext({ locale: 'fr-FR' });
    try {
      const page = await context.newPage();
      await page.goto(suite.url('/news'));
      await page.getByRole('button', { name: 'Nouvelle', exact: true }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('fr');
      expect(await page.getByPlaceholder('Rechercher dans les titres et les slugs…').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
