import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { editorSuite } from './support/editor-harness.js';
import { chooseOption, optionTexts, toggleChoices } from './support/ui-controls.js';

/**
 * The list's richer filters in Chromium: several statuses at once, a date range on a
 * datetime column and a related row, sent to the server as `:in=`, `>=`/`<=` and `relation.slug=`
 * filters, kept in the URL. Counts come from the server's own answer to the same filters.
 */

const suite = editorSuite();

const summary = (page: Page) => page.locator('.pagination-summary');
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 5_000 });
const STATUSES = ['draft', 'published', 'archived'] as const;
const ROWS = 24;

/** How many articles the server counts for these filters. */
async function expected(filters: string[]): Promise<number> {
  const query = filters.map((filter) => `filter=${encodeURIComponent(filter)}`).join('&');
  return (await suite.api.list('articles', `?${query}&limit=0`)).filtered;
}

describe('the list filters in Chromium', () => {
  beforeAll(async () => {
    const culture = await suite.api.create('categories', { title: 'Culture' });
    const sport = await suite.api.create('categories', { title: 'Sport' });
    for (let n = 1; n <= ROWS; n++) {
      await suite.api.create('articles', {
        title: `Story ${n}`,
        status: STATUSES[n % 3],
        published_at: `2025-${String((n % 12) + 1).padStart(2, '0')}-15 12:00:00`,
        category: n % 2 ? culture.id : sport.id,
      });
    }
  });

  it('narrows by several statuses, a date range and a category, as the server counts them', async () => {
    const { page } = suite;
    await page.goto(suite.url('/articles'));
    await poll(() => summary(page).textContent()).toBe(`1–${ROWS} of ${ROWS}`);

    await toggleChoices(page.getByLabel('Status', { exact: true }), ['Draft', 'Archived']);
    const statuses = await expected(['status:in=draft|archived']);
    expect(statuses).toBeLessThan(ROWS);
    await poll(() => summary(page).textContent()).toBe(`1–${statuses} of ${statuses} (filtered from ${ROWS})`);
    expect(new URL(page.url()).searchParams.get('f.status')).toBe('draft|archived');

    await page.getByLabel('Published at from').fill('2025-03-01');
    await page.getByLabel('Published at to').fill('2025-08-31');
    const ranged = await expected([
      'status:in=draft|archived',
      'published_at>=2025-03-01 00:00:00',
      'published_at<=2025-08-31 23:59:59',
    ]);
    expect(ranged).toBeLessThan(statuses);
    await poll(() => summary(page).textContent()).toBe(`1–${ranged} of ${ranged} (filtered from ${ROWS})`);

    const category = page.getByLabel('Category', { exact: true });
    await poll(async () => (await optionTexts(category)).join(',')).toBe('All,Culture,Sport');
    await chooseOption(category, 'Sport');
    const all = await expected([
      'status:in=draft|archived',
      'published_at>=2025-03-01 00:00:00',
      'published_at<=2025-08-31 23:59:59',
      'category.slug=sport',
    ]);
    expect(all).toBeGreaterThan(0);
    expect(all).toBeLessThan(ranged);
    await poll(() => summary(page).textContent()).toBe(`1–${all} of ${all} (filtered from ${ROWS})`);
    const badges = new Set(await page.locator('tbody .badge').allTextContents());
    expect([...badges].every((badge) => badge === 'Draft' || badge === 'Archived')).toBe(true);

    // The whole state is in the URL: a reload shows the same rows and controls.
    await page.reload();
    await poll(() => summary(page).textContent()).toBe(`1–${all} of ${all} (filtered from ${ROWS})`);
    expect(await page.getByLabel('Published at from').inputValue()).toBe('2025-03-01');
    expect(await category.textContent()).toBe('Sport');
    expect(await page.getByLabel('Status', { exact: true }).textContent()).toBe('Draft, Archived');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await poll(() => summary(page).textContent()).toBe(`1–${ROWS} of ${ROWS}`);
  });
});
