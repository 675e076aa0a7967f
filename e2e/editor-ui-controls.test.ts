import { describe, expect, it } from 'vitest';
import { editorSuite } from './support/editor-harness.js';

/**
 * The component layer's Select and MultiSelect in Chromium, by keyboard only: the row form's Status
 * (a Select) and the list's Status filter (a MultiSelect) open with Enter or Space, move with the
 * arrows, pick or tick with Enter or Space, and close with Escape, focus back on their trigger.
 */

const suite = editorSuite();

const focusedId = () => suite.page.evaluate(() => (globalThis as any).document.activeElement?.id ?? '');

describe('the Select and MultiSelect by keyboard', () => {
  it('opens the row form’s Status with Enter, moves with the arrows, picks with Enter, and closes with Escape', async () => {
    const { page } = suite;
    await page.goto(suite.url('/news/new'));
    const status = page.getByRole('combobox', { name: 'Status', exact: true });
    expect(await status.textContent()).toBe('Draft');
    await status.focus();

    await page.keyboard.press('Enter');
    const list = page.getByRole('listbox');
    await list.waitFor();
    expect(await status.getAttribute('aria-expanded')).toBe('true');
    expect(await list.getByRole('option', { selected: true }).textContent()).toBe('Draft');
    await page.keyboard.press('ArrowDown');
    const active = await list.getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${active}"]`).textContent()).toBe('Published');
    await page.keyboard.press('Enter');
    await list.waitFor({ state: 'detached' });
    expect(await status.textContent()).toBe('Published');
    // Focus goes back a frame after the list closes.
    await expect.poll(focusedId).toBe(await status.getAttribute('id'));

    // Space opens it too; Escape closes it and changes nothing.
    await page.keyboard.press(' ');
    await list.waitFor();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(await status.textContent()).toBe('Published');
    // Focus goes back a frame after the list closes.
    await expect.poll(focusedId).toBe(await status.getAttribute('id'));
  });

  it('ticks the list’s Status filter with Space and the arrows, summarises it, and closes with Escape', async () => {
    const { page } = suite;
    await suite.api.create('news', { title: 'Kept draft', status: 'draft', published_at: '2025-05-01 12:00:00' });
    await suite.api.create('news', { title: 'Out now', status: 'published', published_at: '2025-05-02 12:00:00' });
    await page.goto(suite.url('/news'));
    const filter = page.locator('#filter-status');
    expect(await filter.getAttribute('aria-haspopup')).toBe('true');
    expect(await filter.textContent()).toBe('All');
    await filter.focus();

    await page.keyboard.press('Enter');
    const draft = page.getByRole('checkbox', { name: 'Draft', exact: true });
    await draft.waitFor();
    await expect.poll(focusedId).toBe(await draft.getAttribute('id'));
    await page.keyboard.press(' ');
    await page.keyboard.press('ArrowDown');
    const published = page.getByRole('checkbox', { name: 'Published', exact: true });
    expect(await focusedId()).toBe(await published.getAttribute('id'));
    await page.keyboard.press(' ');
    expect(await draft.getAttribute('aria-checked')).toBe('true');
    expect(await published.getAttribute('aria-checked')).toBe('true');
    expect(await filter.textContent()).toBe('Draft, Published');

    await page.keyboard.press('Escape');
    await draft.waitFor({ state: 'detached' });
    await expect.poll(focusedId).toBe(await filter.getAttribute('id'));
    await expect.poll(() => new URL(page.url()).searchParams.get('f.status')).toBe('draft|published');

    // Space opens it again and unticks; nothing ticked means every status.
    await page.keyboard.press(' ');
    await draft.waitFor();
    await page.keyboard.press(' ');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    await page.keyboard.press('Escape');
    expect(await filter.textContent()).toBe('All');
    await expect.poll(() => new URL(page.url()).searchParams.get('f.status')).toBeNull();
  });
});
