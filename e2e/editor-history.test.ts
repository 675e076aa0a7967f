import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { editorSuite } from './support/editor-harness.js';

/**
 * Revisions and trash in Chromium: the row page's History panel lists the changes (what, who,
 * which fields), compares a version with the row now (text word by word), and restores it after a
 * confirmation; Recently deleted lists a type's deleted rows and brings one back with its id.
 */

const suite = editorSuite();

const button = (page: Page, name: string | RegExp) =>
  page.getByRole('button', typeof name === 'string' ? { name, exact: true } : { name });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function put(id: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${suite.server.api}/cms/articles/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

describe('history and recently deleted in the editor', () => {
  it('lists a row’s changes, compares a version word by word, and restores it after confirming', async () => {
    const { page } = suite;
    const row = await suite.api.create('articles', {
      title: 'Harbour report',
      status: 'draft',
      published_at: '2026-01-05 09:00:00',
      body: 'The old pier opens today',
    });
    await put(row.id, { title: 'Harbour report, revised', body: 'The new pier opens tomorrow' });

    await page.goto(suite.url(`/articles/rows/${row.id}`));
    const history = page.getByRole('region', { name: 'History' });
    const items = history.getByRole('listitem');
    // The row page loads as its own chunk: waited for before the history is counted.
    await items.first().waitFor();
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toMatch(/Changed.*by tester.*Title, Body/);
    expect(await items.nth(1).textContent()).toMatch(/Created.*by tester/);

    await items.nth(1).getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('table').waitFor();
    const body = dialog.getByRole('row', { name: /^Body/ });
    expect(await body.locator('del').allTextContents()).toEqual(expect.arrayContaining(['old', 'today']));
    expect(await body.locator('ins').allTextContents()).toEqual(expect.arrayContaining(['new', 'tomorrow']));
    expect(await dialog.getByText('2 fields differ from the row now.').count()).toBe(1);

    await button(page, 'Restore this version').click();
    const confirm = page.getByRole('alertdialog', { name: 'Restore this version?' });
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByText(/Restored the version of/).waitFor();
    await expect.poll(() => field(page, 'Title').inputValue()).toBe('Harbour report');
    const { row: stored } = await suite.api.get('articles', row.id);
    expect(stored).toMatchObject({ title: 'Harbour report', body: 'The old pier opens today' });
    await expect.poll(() => items.count()).toBe(3);
    expect(await items.nth(0).textContent()).toMatch(/Restored from .*by tester.*Title, Body/);
  });

  it('says why a restore is refused (a slug another row took since) and changes nothing', async () => {
    const { page } = suite;
    const row = await suite.api.create('news', {
      title: 'Wanted name',
      status: 'draft',
      published_at: '2026-01-05 09:00:00',
    });
    const moved = await fetch(`${suite.server.api}/cms/news/${row.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'moved-away' }),
    });
    expect(moved.status).toBe(200);
    await suite.api.create('news', { title: 'Wanted name', status: 'draft', published_at: '2026-01-06 09:00:00' });

    await page.goto(suite.url(`/news/rows/${row.id}`));
    const items = page.getByRole('region', { name: 'History' }).getByRole('listitem');
    // The row page loads as its own chunk: waited for before the history is counted.
    await items.first().waitFor();
    await expect.poll(() => items.count()).toBe(2);
    await items.nth(1).getByRole('button').click();
    await button(page, 'Restore this version').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Restore', exact: true }).click();
    const refusal = page.getByRole('dialog').getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/wanted-name.*already used by another row/);
    expect((await suite.api.get('news', row.id)).row?.slug).toBe('moved-away');
  });

  it('deletes a row, finds it under Recently deleted, and restores it with its id', async () => {
    const { page } = suite;
    const row = await suite.api.create('news', {
      title: 'Binned story',
      status: 'draft',
      published_at: '2026-01-05 09:00:00',
    });
    await page.goto(suite.url(`/news/rows/${row.id}`));
    await button(page, 'Delete').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(/\/news$/);
    expect((await suite.api.get('news', row.id)).status).toBe(404);

    await page.getByRole('link', { name: 'Recently deleted' }).click();
    await page.waitForURL(/\/news\/trash$/);
    await page.getByRole('heading', { name: 'Recently deleted' }).waitFor();
    const entry = page.getByRole('row', { name: /Binned story/ });
    expect(await entry.textContent()).toMatch(/just now by tester/);
    await button(page, 'Restore Binned story').click();

    await page.waitForURL(new RegExp(`/news/rows/${row.id}$`));
    await expect.poll(() => field(page, 'Title').inputValue()).toBe('Binned story');
    expect((await suite.api.get('news', row.id)).row).toMatchObject({ id: row.id, created_at: row.created_at });
    await page.goto(suite.url('/news/trash'));
    await page.getByText('Nothing deleted lately').waitFor();
  });

  it('shows the content-type changes, who made them and when, on the Content types screen', async () => {
    const { page } = suite;
    const send = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${suite.server.api}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.text()).toBeLessThan(300);
    };
    const name = { name: 'name', label: 'Name', type: 'text', required: true };
    await send('POST', '/cms-content', {
      title: 'Gigs',
      columns: [name, { name: 'venue', label: 'Venue', type: 'text', required: false }],
    });
    await send('PUT', '/cms-content/gigs', { columns: [name] });

    await page.goto(suite.url('/settings/content-types'));
    const log = page.getByRole('region', { name: 'Recent changes to content types' });
    const items = log.getByRole('listitem');
    await items.first().waitFor();
    expect(await items.nth(0).textContent()).toMatch(/^gigs: removed venue · just now by tester$/);
    expect(await items.nth(1).textContent()).toMatch(/^Created Gigs · just now by tester$/);
  });
});
