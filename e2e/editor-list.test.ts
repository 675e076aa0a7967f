import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { editorSuite } from './support/editor-harness.js';
import { chooseOption, toggleChoices } from './support/ui-controls.js';

const suite = editorSuite();

const STATUSES = ['draft', 'published', 'archived'] as const;
const BULLETINS = 105;
const HARBOUR_TITLES = ['Harbour lights return', 'Harbour swim cancelled', 'Ferry to the harbour'];
const TOTAL = BULLETINS + HARBOUR_TITLES.length;

const summary = (page: Page) => page.locator('.pagination-summary');
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 5_000 });
const bodyRows = (page: Page) => page.locator('tbody tr');
const firstTitle = (page: Page) => page.locator('tbody tr').first().getByRole('link').textContent();

describe('the list view in Chromium', () => {
  beforeAll(async () => {
    // More rows than the largest first page, so paging is real.
    for (let n = 1; n <= BULLETINS; n++) {
      await suite.api.create('news', {
        title: `Bulletin ${String(n).padStart(3, '0')}`,
        status: STATUSES[n % STATUSES.length],
        published_at: `2024-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')} 09:00:00`,
      });
    }
    for (const title of HARBOUR_TITLES) {
      await suite.api.create('news', { title, status: 'published', published_at: '2025-05-01 12:00:00' });
    }
  });

  it('pages past the first page, with "N of M" from the server’s counts', async () => {
    const { page } = suite;
    await page.goto(suite.url('/news'));
    await poll(() => summary(page).textContent()).toBe(`1–50 of ${TOTAL}`);
    expect(await bodyRows(page).count()).toBe(50);
    const firstOnPageOne = await firstTitle(page);

    await page.getByRole('button', { name: 'Next page' }).click();
    await poll(() => summary(page).textContent()).toBe(`51–100 of ${TOTAL}`);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await firstTitle(page)).not.toBe(firstOnPageOne);

    await page.getByRole('button', { name: 'Last page' }).click();
    await poll(() => summary(page).textContent()).toBe(`101–${TOTAL} of ${TOTAL}`);
    expect(await bodyRows(page).count()).toBe(TOTAL - 100);
    expect(await page.getByText('Page 3 of 3').count()).toBe(1);

    await chooseOption(page.getByLabel('Rows per page'), '200');
    await poll(() => summary(page).textContent()).toBe(`1–${TOTAL} of ${TOTAL}`);
  });

  it('searches titles and slugs as the user types', async () => {
    const { page } = suite;
    await page.goto(suite.url('/news'));
    await page.getByLabel('Search', { exact: true }).pressSequentially('harbour');
    await poll(() => summary(page).textContent()).toBe(`1–3 of 3 (filtered from ${TOTAL})`);
    expect((await page.locator('tbody a.row-link').allTextContents()).sort()).toEqual([...HARBOUR_TITLES].sort());
    expect(new URL(page.url()).searchParams.get('q')).toBe('harbour');

    await page.getByLabel('Search', { exact: true }).fill('no such words anywhere');
    await page.getByRole('heading', { name: 'No rows match' }).waitFor();
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await poll(() => summary(page).textContent()).toBe(`1–50 of ${TOTAL}`);
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('');
  });

  it('filters by status with the dropdown', async () => {
    const { page } = suite;
    const archived = (await suite.api.list('news', '?filter=status%3Darchived&limit=0')).filtered;
    await page.goto(suite.url('/news'));
    await toggleChoices(page.getByLabel('Status', { exact: true }), ['Archived']);
    await poll(() => summary(page).textContent()).toBe(`1–${archived} of ${archived} (filtered from ${TOTAL})`);
    const badges = await page.locator('tbody .badge').allTextContents();
    expect(badges).toHaveLength(archived);
    expect(new Set(badges)).toEqual(new Set(['Archived']));
    expect(new URL(page.url()).searchParams.get('f.status')).toBe('archived');
  });

  it('sorts by a column when its header is clicked, ascending then descending', async () => {
    const { page } = suite;
    const ascending = (await suite.api.list('news', '?order=title&limit=1')).rows[0].title;
    const descending = (await suite.api.list('news', '?order=title&desc=true&limit=1')).rows[0].title;
    await page.goto(suite.url('/news'));
    const header = page.getByRole('columnheader', { name: 'Title' });
    await header.getByRole('button').click();
    await poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    await poll(() => firstTitle(page)).toBe(ascending);
    await header.getByRole('button').click();
    await poll(() => header.getAttribute('aria-sort')).toBe('descending');
    await poll(() => firstTitle(page)).toBe(descending);
    expect(new URL(page.url()).search).toBe('?order=title&desc=1');
  });

  it('keeps search, filter, sort, page size and page in the URL across a reload', async () => {
    const { page } = suite;
    const matching = (await suite.api.list('news', '?filter=status%3Dpublished&filter=search%3Dbulletin&limit=0'))
      .filtered;
    expect(matching).toBeGreaterThan(25);
    await page.goto(suite.url('/news'));
    await toggleChoices(page.getByLabel('Status', { exact: true }), ['Published']);
    await page.getByLabel('Search', { exact: true }).fill('bulletin');
    await page.getByRole('columnheader', { name: 'Published at' }).getByRole('button').click();
    await chooseOption(page.getByLabel('Rows per page'), '25');
    await poll(() => summary(page).textContent()).toBe(`1–25 of ${matching} (filtered from ${TOTAL})`);
    await page.getByRole('button', { name: 'Next page' }).click();
    await poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');

    await page.reload();
    await poll(() => summary(page).textContent()).toBe(
      `26–${Math.min(50, matching)} of ${matching} (filtered from ${TOTAL})`,
    );
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('bulletin');
    expect(await page.getByLabel('Status', { exact: true }).textContent()).toBe('Published');
    expect(await page.getByLabel('Rows per page').textContent()).toBe('25');
    expect(await page.getByRole('columnheader', { name: 'Published at' }).getAttribute('aria-sort')).toBe('ascending');
  });

  it('designs its loading, empty and error states', async () => {
    const { page } = suite;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/cms/news?**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(suite.url('/news'));
    await page.getByText('Loading News…').waitFor();
    release();
    await page.getByRole('table').waitFor();
    await page.unroute('**/api/cms/news?**');

    await page.route('**/api/cms/news?**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { status: 500, code: 'internal_error', message: 'The disk is full' } }),
      }),
    );
    await page.getByLabel('Search', { exact: true }).fill('x');
    await page.getByRole('heading', { name: 'Couldn’t load News' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('The disk is full');
    await page.unroute('**/api/cms/news?**');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'No rows match' }).waitFor();

    await page.getByRole('link', { name: 'Categories' }).click();
    await page.getByRole('heading', { name: 'No categories yet' }).waitFor();
  });
});
