import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ContentTypeListResponse, GetRowResponse } from '../common/api-contract.js';
import { editorSuite } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

const suite = editorSuite();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 5_000 });

async function read(path: string) {
  return (await fetch(`${suite.server.api}${path}`)).json();
}

describe('single-row types in Chromium', () => {
  it('the type editor makes a single type; the sidebar opens its one form, whose first save creates the row', async () => {
    const { page } = suite;
    await page.goto(suite.url('/settings/content-types/new'));
    await field(page, 'Title').fill('Site settings');
    await chooseOption(field(page, 'Kind'), 'Single: one row (site settings, a home page)');
    await button(page, 'Save content type').click();
    await page.waitForURL('**/settings/content-types/edit/site-settings');
    const types = (await read('/cms-content')) as ContentTypeListResponse;
    expect(types.content_types.find((type) => type.slug === 'site-settings')?.type).toBe('single');
    // The Content types screen marks it.
    await page.goto(suite.url('/settings/content-types'));
    await poll(() => page.getByRole('row', { name: /Site settings/ }).textContent()).toContain('Single');
    await page.goto(suite.url('/news'));

    // The sidebar opens the form itself: no list, no way back to one, no New or Delete.
    // Once the sidebar shows the collections' counts, the single type shows none.
    await page.getByRole('link', { name: 'News', exact: true }).locator('.nav-count').waitFor();
    const link = page.getByRole('link', { name: 'Site settings', exact: true });
    expect(await link.locator('.nav-count').count()).toBe(0);
    await link.click();
    await page.waitForURL('**/site_settings');
    await field(page, 'Title').waitFor();
    expect(await page.locator('table').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Back to list' }).count()).toBe(0);
    await field(page, 'Title').fill('My site');
    await button(page, 'Save').click();
    await page.getByText('Created “My site”').waitFor();
    const first = (await read('/cms/site_settings')) as GetRowResponse;
    expect(first.rows.map((row) => row.title)).toEqual(['My site']);
    expect(await button(page, 'Delete').count()).toBe(0);
    expect(await button(page, 'New').count()).toBe(0);

    // Opened again from the sidebar, the form holds the row, and a save changes it (never a second row).
    await page.goto(suite.url('/news'));
    await page.getByRole('link', { name: 'Site settings', exact: true }).click();
    await page.waitForURL('**/site_settings');
    await expect.poll(() => field(page, 'Title').inputValue(), { timeout: 5_000 }).toBe('My site');
    await field(page, 'Title').fill('My site, renamed');
    await button(page, 'Save').click();
    await expect
      .poll(async () => ((await read('/cms/site_settings')) as GetRowResponse).rows.map((row) => row.title), {
        timeout: 5_000,
      })
      .toEqual(['My site, renamed']);
    expect(((await read('/cms/site_settings')) as GetRowResponse).total).toBe(1);
  });

  it('the type editor turns a collection of one row into a single type, whose form then holds that row', async () => {
    const { page } = suite;
    const created = await fetch(`${suite.server.api}/cms-content`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Footer',
        columns: [{ name: 'note', label: 'Note', type: 'text', required: false }],
      }),
    });
    expect(created.status).toBe(201);
    await suite.api.create('footer', { note: 'All rights reserved' });
    await page.goto(suite.url('/settings/content-types/edit/footer'));
    await chooseOption(field(page, 'Kind'), 'Single: one row (site settings, a home page)');
    await button(page, 'Save content type').click();
    await expect
      .poll(
        async () =>
          ((await read('/cms-content')) as ContentTypeListResponse).content_types.find((t) => t.slug === 'footer')
            ?.type,
        {
          timeout: 5_000,
        },
      )
      .toBe('single');
    await page.getByRole('link', { name: 'Footer', exact: true }).click();
    await expect.poll(() => field(page, 'Note').inputValue(), { timeout: 5_000 }).toBe('All rights reserved');
  });
});
