import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ContentTypeListResponse, ContentTypeSummary } from '../common/api-contract.js';
import { editorSuite } from './support/editor-harness.js';
import { landscapePng } from './support/png-image.js';
import { chooseOption } from './support/ui-controls.js';

const suite = editorSuite();

const field = (scope: Page | Locator, label: string) => scope.getByLabel(label, { exact: true });
const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const fieldGroup = (page: Page, position: number) =>
  page.getByRole('group', { name: new RegExp(`^Field ${position}:`) });
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 5_000 });
const rowIdFromUrl = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

async function contentType(slug: string): Promise<ContentTypeSummary | undefined> {
  const response = await fetch(`${suite.server.api}/cms-content`);
  return ((await response.json()) as ContentTypeListResponse).content_types.find((type) => type.slug === slug);
}

/** Adds a field of a type (by its name in the Field type list) in the Content types screen and returns its group. */
async function addField(page: Page, position: number, label: string, type: string): Promise<Locator> {
  await button(page, 'Add field').click();
  const group = fieldGroup(page, position);
  await field(group, 'Field label').fill(label);
  await chooseOption(field(group, 'Field type'), type);
  return group;
}

/** Drops a PNG file on an element, as a file dragged from the desktop would be. */
async function dropPng(page: Page, target: Locator, name: string, png: Buffer): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ bytes, fileName }) => {
      // Runs in the page, where DataTransfer and File are the browser's.
      const page = globalThis as any;
      const transfer = new page.DataTransfer();
      transfer.items.add(new page.File([new Uint8Array(bytes)], fileName, { type: 'image/png' }));
      return transfer;
    },
    { bytes: [...png], fileName: name },
  );
  // One element throughout: the drop zone's text changes while a file is dragged over it.
  const element = await target.elementHandle();
  for (const event of ['dragenter', 'dragover', 'drop']) await element?.dispatchEvent(event, { dataTransfer });
}

describe('content types in Chromium', () => {
  it('creates a type with every kind of field in the Content types screen, then a row of it with every widget', async () => {
    const { page } = suite;
    const soups = await suite.api.create('categories', { title: 'Soups' });
    await page.goto(suite.url('/news'));
    await page.getByRole('link', { name: 'Content types' }).click();
    await page.waitForURL('**/settings/content-types');
    expect(await page.getByRole('row', { name: /Articles/ }).textContent()).toContain('Starter');
    await button(page, 'New content type').click();
    await page.waitForURL('**/settings/content-types/new');

    await field(page, 'Title').fill('Recipes');
    expect(await field(page, 'Slug').inputValue()).toBe('recipes');
    expect(await field(page, 'Table').inputValue()).toBe('recipes');
    await field(page, 'Preview path').fill('http://localhost:4321/recipes/{slug}');
    await addField(page, 3, 'Summary', 'Long text');
    await addField(page, 4, 'Method', 'Markdown');
    const servings = await addField(page, 5, 'Servings', 'Number');
    await field(servings, 'Required').check();
    await addField(page, 6, 'Vegetarian', 'Yes / no');
    await addField(page, 7, 'First cooked', 'Date');
    await addField(page, 8, 'Served at', 'Date and time');
    const difficulty = await addField(page, 9, 'Difficulty', 'Select');
    await field(difficulty, 'Option 1 text').fill('Easy');
    await button(difficulty, 'Add option').click();
    await field(difficulty, 'Option 2 text').fill('Hard going');
    await field(difficulty, 'Option 2 id').fill('hard');
    await addField(page, 10, 'Photo', 'Image');
    await addField(page, 11, 'Keywords', 'Tags');
    const category = await addField(page, 12, 'Category', 'Relation');
    await chooseOption(field(category, 'Points to'), 'Categories');
    expect(await field(fieldGroup(page, 12), 'Field name').inputValue()).toBe('category');

    // The preview draws the real widgets of the draft, as the row editor will.
    const preview = page.locator('.form-preview');
    expect(await preview.locator('.label').allTextContents()).toEqual([
      'Title',
      'Slug',
      'Summary',
      'Method',
      'Servings',
      'Vegetarian',
      'First cooked',
      'Served at',
      'Difficulty',
      'Photo',
      'Keywords',
      'Category',
    ]);
    // The preview is inert, so its Select shows its empty choice without opening; the options are
    // picked from in the row form below.
    expect(await preview.locator('.ui-select-trigger').last().textContent()).toBe('—');

    await button(page, 'Save content type').click();
    await page.waitForURL('**/settings/content-types/edit/recipes');
    await page.getByText('Created the content type “Recipes”').waitFor();
    const saved = await contentType('recipes');
    expect(saved).toMatchObject({
      table: 'recipes',
      custom: true,
      preview_path: 'http://localhost:4321/recipes/{slug}',
    });
    expect(saved?.columns.map((column) => [column.name, column.type])).toEqual([
      ['title', 'text'],
      ['slug', 'slug'],
      ['summary', 'textarea'],
      ['method', 'markdown'],
      ['servings', 'number'],
      ['vegetarian', 'boolean'],
      ['first_cooked', 'date'],
      ['served_at', 'datetime'],
      ['difficulty', 'select'],
      ['photo', 'image'],
      ['keywords', 'tags'],
      ['category', 'relation'],
    ]);
    expect(saved?.columns[8].options).toEqual([
      { id: 'easy', text: 'Easy' },
      { id: 'hard', text: 'Hard going' },
    ]);
    expect(saved?.columns[11].target).toBe('categories');

    // A row of the new type, through every widget.
    await page.getByRole('link', { name: 'Recipes', exact: true }).click();
    await button(page, 'New').first().click();
    await page.waitForURL('**/recipes/new');
    await field(page, 'Title').fill('Lentil soup');
    await field(page, 'Summary').fill('Warming.\nReady in forty minutes.');
    await field(page, 'Method').fill('## Steps\n\n1. Rinse the lentils');
    await field(page, 'Servings').fill('4');
    await field(page, 'Vegetarian').click();
    await field(page, 'First cooked').fill('2024-11-02');
    await field(page, 'Served at').fill('2025-01-15T19:30:00');
    await chooseOption(field(page, 'Difficulty'), 'Hard going');
    await dropPng(page, page.getByText('Drag an image here, or'), 'soup.png', landscapePng(64, 40, 30));
    const photo = page.getByRole('img', { name: 'Photo preview' });
    await photo.waitFor();
    expect(await photo.getAttribute('src')).toMatch(/^\/media\/\d{4}\/\d{2}\/[0-9a-f-]+\.png$/);
    await field(page, 'Keywords').fill('soup');
    await page.keyboard.press('Enter');
    await field(page, 'Keywords').pressSequentially('winter,');
    await field(page, 'Category').fill('Sou');
    await page.getByRole('option', { name: /Soups/ }).click();
    expect(await field(page, 'Category').inputValue()).toBe('Soups');
    await button(page, 'Save').click();

    await page.waitForURL(/\/recipes\/rows\/[^/?]+$/);
    const { row } = await suite.api.get('recipes', rowIdFromUrl(page));
    expect(row).toMatchObject({
      title: 'Lentil soup',
      slug: 'lentil-soup',
      summary: 'Warming.\nReady in forty minutes.',
      method: '## Steps\n\n1. Rinse the lentils',
      servings: 4,
      vegetarian: true,
      first_cooked: '2024-11-02',
      served_at: '2025-01-15 19:30:00',
      difficulty: 'hard',
      photo: await photo.getAttribute('src'),
      keywords: ['soup', 'winter'],
      category: { id: soups.id, title: 'Soups', slug: 'soups' },
    });
    expect(await page.getByRole('link', { name: 'Open preview' }).getAttribute('href')).toBe(
      'http://localhost:4321/recipes/lentil-soup',
    );

    // The list shows the new types compactly; at 1440 px it has room for every column.
    await page.setViewportSize({ width: 1440, height: 860 });
    await page.getByRole('link', { name: 'Back to list' }).click();
    const listed = page.getByRole('row', { name: /Lentil soup/ });
    await listed.waitFor();
    expect(await listed.getByRole('cell').allTextContents()).toEqual([
      '',
      'Lentil soup',
      '4',
      'Yes',
      'Hard going',
      'Soups',
      'just now',
    ]);
    await poll(() => listed.locator('img').evaluate((image: any) => image.naturalWidth)).toBe(64);
    // Narrower, the list lets its lowest-ranked column go first.
    await page.setViewportSize({ width: 1100, height: 860 });
    await poll(() => listed.getByRole('cell').count()).toBeLessThan(7);
    expect((await listed.getByRole('cell').allTextContents()).slice(0, 2)).toEqual(['', 'Lentil soup']);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('renames, reorders and removes fields of a type with rows; data follows the rename', async () => {
    const { page } = suite;
    const created = await fetch(`${suite.server.api}/cms-content`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Authors',
        columns: [
          { name: 'title', label: 'Name', type: 'text', required: true },
          { name: 'bio', label: 'Bio', type: 'text', required: false },
          { name: 'twitter', label: 'Twitter', type: 'text', required: false },
        ],
      }),
    });
    expect(created.status).toBe(201);
    const author = await suite.api.create('authors', { title: 'Ada', bio: 'Writes about boats.', twitter: '@ada' });

    await page.goto(suite.url('/settings/content-types/edit/authors'));
    const bio = page.getByRole('group', { name: 'Field 2: Bio' });
    await field(bio, 'Field name').fill('about');
    await chooseOption(field(bio, 'Field type'), 'Long text');
    await button(bio, 'Move up').click();
    await page.getByRole('group', { name: 'Field 1: Bio' }).waitFor();
    await button(page.getByRole('group', { name: 'Field 3: Twitter' }), 'Remove field').click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('data in every Authors row is lost');
    await button(confirm, 'Remove field').click();
    await button(page, 'Save content type').click();
    await page.getByText('Saved “Authors”').waitFor();

    expect((await contentType('authors'))?.columns).toEqual([
      { name: 'about', label: 'Bio', type: 'textarea', required: false, filterable: true, orderable: true },
      { name: 'title', label: 'Name', type: 'text', required: true, filterable: true, orderable: true },
    ]);
    const { row } = await suite.api.get('authors', author.id);
    expect(row).toMatchObject({ title: 'Ada', about: 'Writes about boats.' });
    expect(row).not.toHaveProperty('twitter');

    // A problem the server finds is shown at the input it names.
    await button(page, 'Add field').click();
    await field(fieldGroup(page, 3), 'Field label').fill('Created at');
    await button(page, 'Save content type').click();
    const name = field(fieldGroup(page, 3), 'Field name');
    await poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await name.getAttribute('aria-describedby')}`).textContent()).toBe(
      'Field name created_at is reserved; pick another name',
    );
    expect((await contentType('authors'))?.columns).toHaveLength(2);
  });

  it('deletes a type with rows only after a confirmation that counts them', async () => {
    const { page } = suite;
    const created = await fetch(`${suite.server.api}/cms-content`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Events',
        columns: [{ name: 'title', label: 'Title', type: 'text', required: true }],
      }),
    });
    expect(created.status).toBe(201);
    await suite.api.create('events', { title: 'Jazz night' });
    await suite.api.create('events', { title: 'Regatta' });

    await page.goto(suite.url('/settings/content-types/edit/events'));
    await button(page, 'Delete content type').click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Events has 2 rows.').waitFor();
    await button(dialog, 'Cancel').click();
    expect(await contentType('events')).toBeDefined();

    await button(page, 'Delete content type').click();
    await button(page.getByRole('alertdialog'), 'Delete content type and its 2 rows').click();
    await page.waitForURL('**/settings/content-types');
    await page.getByText('Deleted the content type “Events”').waitFor();
    expect(await contentType('events')).toBeUndefined();
    expect(await page.getByRole('link', { name: 'Events', exact: true }).count()).toBe(0);
  });
});
