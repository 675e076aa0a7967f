import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { editorSuite } from './support/editor-harness.js';
import { landscapePng } from './support/png-image.js';

const suite = editorSuite();

const field = (scope: Page | Locator, label: string) => scope.getByLabel(label, { exact: true });
const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 5_000 });
const rowIdFromUrl = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

/** Chooses a file for the Image field through the browser's file chooser. */
async function chooseFile(page: Page, buttonName: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await button(page, buttonName).click();
  await (await chooser).setFiles(file);
}

describe('articles in Chromium', () => {
  it('writes an article with description, Markdown body, tags, a category, an uploaded image and a preview link', async () => {
    const { page } = suite;
    const culture = await suite.api.create('categories', { title: 'Culture' });
    await suite.api.create('categories', { title: 'Sport' });

    // The site's address of an article, set in the Content types screen.
    await page.goto(suite.url('/settings/content-types/edit/articles'));
    await field(page, 'Preview path').fill('http://localhost:4321/blog/{slug}');
    await button(page, 'Save content type').click();
    await page.getByText('Saved “Articles”').waitFor();

    await page.getByRole('link', { name: 'Articles', exact: true }).click();
    await button(page, 'New').click();
    await field(page, 'Title').fill('Harbour festival returns');
    await field(page, 'Published at').fill('2025-06-01T10:00:00');
    await field(page, 'Description').fill('Boats, music and fish soup.\nAll weekend.');
    await field(page, 'Body').fill('## Programme\n\nThe **regatta** starts at seven.\n\n- Fish market\n- Jazz');
    await button(page, 'Preview').click();
    const preview = page.getByRole('region', { name: 'Body preview' });
    await preview.getByRole('heading', { name: 'Programme' }).waitFor();
    expect(await preview.locator('strong').textContent()).toBe('regatta');
    expect(await preview.getByRole('listitem').allTextContents()).toEqual(['Fish market', 'Jazz']);
    await button(page, 'Write').click();

    // Not an image: refused by content, with a message that says what to do.
    await chooseFile(page, 'Choose file for Image', {
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('these are notes, not a picture'),
    });
    expect(await page.getByRole('alert').textContent()).toBe(
      '“notes.png” is not an image Quire can store. Choose a PNG, JPEG, GIF, WebP, AVIF or SVG file.',
    );
    await chooseFile(page, 'Choose file for Image', {
      name: 'harbour.png',
      mimeType: 'image/png',
      buffer: landscapePng(48, 30),
    });
    const image = page.getByRole('img', { name: 'Image preview' });
    await image.waitFor();
    const path = await image.getAttribute('src');
    expect(path).toMatch(/^\/media\/\d{4}\/\d{2}\/[0-9a-f-]+\.png$/);
    await poll(() => image.evaluate((element: any) => element.naturalWidth)).toBe(48);
    expect(await page.getByText('48 × 30 px').count()).toBe(1);

    await field(page, 'Tags').fill('festival');
    await page.keyboard.press('Enter');
    await field(page, 'Tags').pressSequentially('harbour,music,festival,');
    await button(page, 'Remove tag music').click();
    await field(page, 'Category').click();
    await page.getByRole('option', { name: /Sport/ }).waitFor();
    await field(page, 'Category').fill('cult');
    await page.getByRole('option', { name: /Culture/ }).click();
    await button(page, 'Save').click();

    await page.waitForURL(/\/articles\/rows\/[^/?]+$/);
    const id = rowIdFromUrl(page);
    const { row } = await suite.api.get('articles', id);
    expect(row).toMatchObject({
      title: 'Harbour festival returns',
      slug: 'harbour-festival-returns',
      description: 'Boats, music and fish soup.\nAll weekend.',
      body: '## Programme\n\nThe **regatta** starts at seven.\n\n- Fish market\n- Jazz',
      image: path,
      tags: ['festival', 'harbour'],
      category: { id: culture.id, title: 'Culture', slug: 'culture' },
    });
    const open = page.getByRole('link', { name: 'Open preview' });
    expect(await open.getAttribute('href')).toBe('http://localhost:4321/blog/harbour-festival-returns');
    expect(await open.getAttribute('target')).toBe('_blank');
    expect(await open.getAttribute('rel')).toBe('noopener');

    // Everything is there after a reload.
    await page.reload();
    expect(await field(page, 'Description').inputValue()).toBe('Boats, music and fish soup.\nAll weekend.');
    expect(await field(page, 'Body').inputValue()).toContain('The **regatta** starts at seven.');
    expect(await page.getByRole('list', { name: /Tags/ }).getByRole('listitem').allTextContents()).toEqual([
      'festival',
      'harbour',
    ]);
    expect(await field(page, 'Category').inputValue()).toBe('Culture');
    await poll(() => page.getByRole('img', { name: 'Image preview' }).getAttribute('src')).toBe(path);
    await poll(() =>
      page.getByRole('img', { name: 'Image preview' }).evaluate((element: any) => element.naturalWidth),
    ).toBe(48);

    // Remove and clear, then save: the image and category are gone.
    await button(page, 'Remove Image').click();
    await button(page, 'Clear Category').click();
    await button(page, 'Save').click();
    await page.getByText('All changes saved').waitFor();
    expect((await suite.api.get('articles', id)).row).toMatchObject({ image: null, category: null });
  });

  it('refuses to delete a category that an article uses, and links to that article', async () => {
    const { page } = suite;
    const business = await suite.api.create('categories', { title: 'Business' });
    const article = await suite.api.create('articles', {
      title: 'Bakery wins national award',
      status: 'published',
      published_at: '2025-02-01 08:00:00',
      category: business.id,
    });

    await page.goto(suite.url(`/categories/rows/${business.id}`));
    await button(page, 'Delete').click();
    await button(page.getByRole('alertdialog'), 'Delete').click();
    const banner = page.getByRole('alert');
    await banner.getByText('“Business” is still used by another row').waitFor();
    expect(await banner.textContent()).toContain('Articles, Category');
    expect((await suite.api.get('categories', business.id)).status).toBe(200);

    await banner.getByRole('link', { name: 'Bakery wins national award' }).click();
    await page.waitForURL(`**/articles/rows/${article.id}`);
    expect(await field(page, 'Category').inputValue()).toBe('Business');
  });
});
