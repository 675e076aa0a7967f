import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEAM_PASSWORD } from '../server/test-support/team-fixture.js';
import { editorSuite } from './support/editor-harness.js';

/**
 * The main journeys by keyboard alone (page.keyboard, never a click): the shortcuts dialog on `?`,
 * the skip link, the folded sidebar on a phone, create a type, write a row and save it, filter the
 * list, restore a revision, and add accounts. Every control reached shows where the focus is.
 */

const suite = editorSuite();

/** Most Tab presses a journey takes to reach one control. */
const MAX_TABS = 120;

/** The focused element's accessible name as a person hears it, and whether its focus is drawn. */
async function focused(page: Page): Promise<{ name: string; visible: boolean }> {
  return page.evaluate(() => {
    const element = (globalThis as any).document.activeElement;
    if (!element || element === element.ownerDocument.body) return { name: '', visible: false };
    const labelled = element.getAttribute('aria-labelledby');
    const name = (
      element.getAttribute('aria-label') ??
      (labelled ? element.ownerDocument.getElementById(labelled)?.textContent : null) ??
      element.labels?.[0]?.textContent ??
      element.textContent ??
      ''
    ).trim();
    const style = (globalThis as any).getComputedStyle(element);
    const visible = (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
    return { name, visible };
  });
}

/** Presses Tab until the control named `name` has focus, and checks the focus is visible there. */
async function tabTo(page: Page, name: string | RegExp, key = 'Tab'): Promise<void> {
  const wanted = typeof name === 'string' ? (text: string) => text === name : (text: string) => name.test(text);
  const seen: string[] = [];
  for (let n = 0; n < MAX_TABS; n++) {
    await page.keyboard.press(key);
    const now = await focused(page);
    seen.push(now.name);
    if (wanted(now.name)) {
      expect(now.visible, `the focus on "${now.name}" is visible`).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${name}; it went through: ${seen.slice(0, 40).join(' | ')}`);
}

const historyItems = (page: Page) => page.getByRole('region', { name: 'History' }).getByRole('listitem');

describe('the editor by keyboard alone', () => {
  it('opens the shortcuts on ?, closes them on Escape, and skips to the content', async () => {
    const { page } = suite;
    await page.goto(suite.url('/news'));
    await page.getByRole('heading', { name: 'News', exact: true }).waitFor();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    for (const listed of [
      'Show these shortcuts',
      'Search the list',
      'Save the row',
      'Bold',
      'Close the dialog or menu',
    ]) {
      expect(await dialog.getByText(listed, { exact: true }).count()).toBe(1);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // `?` typed into a field is text, not the shortcut.
    await page.keyboard.press('/');
    await page.keyboard.type('what?');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('what?');

    await page.goto(suite.url('/news'));
    await page.getByRole('heading', { name: 'News', exact: true }).waitFor();
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('main');
  });

  it('opens the folded sidebar on a phone with Enter and folds it again with Escape', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(suite.url('/news'));
    await page.getByRole('heading', { name: 'News', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Articles' }).isVisible()).toBe(false);
    await tabTo(page, 'Menu');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await tabTo(page, /^Articles/);
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect((await focused(page)).name).toBe('Menu');

    // Choosing a screen folds it too.
    await page.keyboard.press('Enter');
    await tabTo(page, /^Articles/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Articles', exact: true }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('creates a content type', async () => {
    const { page } = suite;
    await page.goto(suite.url('/settings/content-types/new'));
    // The form is drawn once the types are loaded: Tab starts from there.
    await page.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
    await tabTo(page, 'Title');
    await page.keyboard.type('Recipes');
    await tabTo(page, 'Save content type');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/settings/content-types/edit/recipes');
    expect((await fetch(`${suite.server.api}/cms/recipes`)).status).toBe(200);
  });

  it('writes a row and saves it with Ctrl+S', async () => {
    const { page } = suite;
    await page.goto(suite.url('/news/new'));
    await page.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
    await tabTo(page, 'Title');
    await page.keyboard.type('Written by keyboard');
    await page.keyboard.press('Control+s');
    await page.waitForURL(/\/news\/rows\//);
    const { rows } = await suite.api.list('news');
    expect(rows.map((row) => row.title)).toContain('Written by keyboard');
  });

  it('filters the list from the / shortcut and opens a row from it', async () => {
    const { page } = suite;
    await suite.api.create('news', { title: 'Harbour opens', status: 'draft', published_at: '2026-01-05 09:00:00' });
    await suite.api.create('news', { title: 'Market moves', status: 'draft', published_at: '2026-01-06 09:00:00' });
    await page.goto(suite.url('/news'));
    await page.getByRole('link', { name: 'Market moves' }).waitFor();
    await page.keyboard.press('/');
    await page.keyboard.type('harbour');
    await expect.poll(() => page.getByRole('link', { name: 'Market moves' }).count()).toBe(0);
    await tabTo(page, 'Harbour opens');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Title', exact: true }).inputValue()).toBe('Harbour opens');
  });

  it('restores a revision', async () => {
    const { page } = suite;
    const row = await suite.api.create('news', {
      title: 'First words',
      status: 'draft',
      published_at: '2026-01-05 09:00:00',
    });
    const changed = await fetch(`${suite.server.api}/cms/news/${row.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Second words' }),
    });
    expect(changed.status).toBe(200);
    await page.goto(suite.url(`/news/rows/${row.id}`));
    await historyItems(page).nth(1).waitFor();
    await tabTo(page, /^Created/);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('table').waitFor();
    await tabTo(page, 'Restore this version');
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog', { name: 'Restore this version?' }).waitFor();
    await tabTo(page, 'Restore');
    await page.keyboard.press('Enter');
    await page.getByText(/Restored the version of/).waitFor();
    expect((await suite.api.get('news', row.id)).row).toMatchObject({ title: 'First words' });
  });

  it('adds the first account, then another', async () => {
    const { page } = suite;
    await page.goto(suite.url('/settings/accounts'));
    await page.getByRole('textbox', { name: 'Name', exact: true }).waitFor();
    await tabTo(page, 'Name');
    await page.keyboard.type('ada');
    await tabTo(page, 'Password');
    await page.keyboard.type(TEAM_PASSWORD);
    await tabTo(page, 'Password again');
    await page.keyboard.type(TEAM_PASSWORD);
    await tabTo(page, 'Create account and sign in');
    await page.keyboard.press('Enter');
    await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();
    await page.getByRole('heading', { name: 'Accounts' }).waitFor();

    await tabTo(page, 'Name');
    await page.keyboard.type('vera');
    await tabTo(page, 'Password');
    await page.keyboard.type(TEAM_PASSWORD);
    await tabTo(page, 'Add account');
    await page.keyboard.press('Enter');
    await page.getByRole('cell', { name: 'vera', exact: true }).waitFor();
  });
});
