import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentRow } from '../common/api-contract.js';
import { expectAccessible } from './support/axe-check.js';
import { editorSuite } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

/**
 * Translating in the editor, in Chromium: a type with translatable fields on a site in English and
 * German (falling back to English). The list and the row editor switch to German (remembered), a
 * field that falls back shows the English value as its placeholder and a "from English" badge,
 * a shared field says "All languages", side by side shows the English beside each translatable
 * field, a save writes in German only and the history names the language it changed,
 * clearing a German field makes it fall back again, and the list's "Missing in Deutsch" lists the
 * rows German still lacks.
 */

const suite = editorSuite();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const switcher = (page: Page) => page.getByRole('combobox', { name: 'Content language' });
/** The text of a field's locale marks (its tag's name and its fallback badge). */
const marksOf = (page: Page, name: string) => page.locator(`#field-${name}-marks`).textContent();

async function call(method: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${suite.server.api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: suite.server.origin },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function read(id: string, locale: string): Promise<ContentRow> {
  const response = await fetch(`${suite.server.api}/cms/places/${id}?locale=${locale}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { rows: ContentRow[] }).rows[0];
}

/** The titles the list shows, in order. */
async function listedTitles(page: Page): Promise<string[]> {
  return page.locator('tbody .row-link').allTextContents();
}

let harbour: ContentRow;

beforeAll(async () => {
  const type = await call('POST', '/cms-content', {
    title: 'Places',
    slug: 'places',
    table: 'places',
    columns: [
      { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
      { name: 'summary', label: 'Summary', type: 'textarea', required: false, localized: true },
      { name: 'visitors', label: 'Visitors', type: 'number', required: false },
    ],
  });
  expect(type.status).toBe(201);
  const locales = await call('PUT', '/locales', {
    default: 'en',
    locales: [
      { code: 'en', label: 'English' },
      { code: 'de', label: 'Deutsch', fallback: ['en'] },
    ],
  });
  expect(locales.status).toBe(200);
  harbour = await suite.api.create('places', { title: 'Harbour', summary: 'Boats and ferries', visitors: 120 });
  await suite.api.create('places', { title: 'Lighthouse', summary: 'A light on the cape', visitors: 40 });
});

describe('translating in the editor', () => {
  it('switches to German, translates a row with the English beside it, and lists what German still lacks', async () => {
    const { page } = suite;
    await page.goto(suite.url('/places'));
    await switcher(page).waitFor();
    expect(await switcher(page).textContent()).toBe('English');
    await chooseOption(switcher(page), 'Deutsch');
    // German has no value of its own yet: the list shows the English ones.
    await page.getByRole('cell', { name: 'Harbour' }).waitFor();
    await chooseOption(field(page, 'Translation'), 'Missing in Deutsch');
    await expect.poll(() => new URL(page.url()).searchParams.get('f.locale.missing')).toBe('de');
    await expect.poll(() => listedTitles(page)).toEqual(expect.arrayContaining(['Harbour', 'Lighthouse']));
    await expectAccessible(page, 'the list in German narrowed to missing translations');

    await page.getByRole('link', { name: 'Harbour' }).click();
    await page.waitForURL(`**/places/rows/${harbour.id}**`);
    // The choice is remembered: the row opens in German, its fields falling back to English.
    await expect.poll(() => field(page, 'Title').getAttribute('placeholder')).toBe('Harbour');
    expect(await switcher(page).textContent()).toBe('Deutsch');
    expect(await field(page, 'Title').inputValue()).toBe('');
    expect(await marksOf(page, 'title')).toBe('DEDeutschfrom English');
    expect(await marksOf(page, 'summary')).toBe('DEDeutschfrom English');
    // A shared field: a change here changes every language.
    expect(await marksOf(page, 'visitors')).toBe('All languages A change here changes every language.');

    // Side by side: the English beside each translatable field.
    await button(page, 'Side by side').click();
    const english = page.getByRole('figure', { name: /^Summary/ });
    await english.getByText('Boats and ferries').waitFor();
    expect(await page.getByRole('figure').count()).toBe(2);
    expect(await page.getByRole('combobox', { name: 'Source language' }).textContent()).toBe('English');

    await field(page, 'Title').fill('Hafen');
    await field(page, 'Summary').fill('Boote und Fähren');
    await expectAccessible(page, 'the row editor translating side by side');
    await button(page, 'Save').click();
    await page.getByText('All changes saved').waitFor();
    await expect.poll(() => marksOf(page, 'title')).toBe('DEDeutsch');
    expect(await marksOf(page, 'summary')).toBe('DEDeutsch');
    // The history names the language the save changed.
    const history = page.getByRole('region', { name: 'History' });
    await expect.poll(() => history.locator('li').first().textContent()).toContain('Language: Deutsch');

    // Written in German only; English and the shared field stay.
    expect(await read(harbour.id, 'de')).toMatchObject({ title: 'Hafen', summary: 'Boote und Fähren', visitors: 120 });
    expect(await read(harbour.id, 'en')).toMatchObject({ title: 'Harbour', summary: 'Boats and ferries' });

    await page.getByRole('link', { name: 'Back to list' }).click();
    await page.waitForURL(/\/places\?/);
    await expect.poll(() => listedTitles(page)).toEqual(['Lighthouse']);

    // Cleared in German, the summary falls back to English again.
    await page.goto(suite.url(`/places/rows/${harbour.id}`));
    await expect.poll(() => field(page, 'Summary').inputValue()).toBe('Boote und Fähren');
    await field(page, 'Summary').fill('');
    await button(page, 'Save').click();
    await expect.poll(() => marksOf(page, 'summary')).toBe('DEDeutschfrom English');
    expect(await field(page, 'Summary').getAttribute('placeholder')).toBe('Boats and ferries');
    expect((await read(harbour.id, 'de')).fallbacks).toEqual({ summary: 'en' });
  });
});
