import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builtEditorDir } from '../server/config/package-root.js';
import { startTestServer } from '../server/test-support/test-server.js';
import { browserPerFile, openTab } from './support/editor-harness.js';

/**
 * The editor's language per person: a signed-in person's choice is kept on the account, so signing
 * in from another browser (fresh storage, an English browser) opens the editor in it; another
 * person on that browser keeps their own.
 */

const PASSWORD = 'correct horse battery staple';
const { browser, servers, pages } = browserPerFile();

/** A fresh browser (its own storage) on the server's editor. */
async function freshBrowser(): Promise<Page> {
  const { page } = await openTab(browser(), { locale: 'en-GB' });
  pages.push(page);
  return page;
}

/** Signs in on the (English) sign-in page and waits for the editor. */
async function signIn(page: Page, origin: string, name: string): Promise<void> {
  await page.goto(`${origin}/news`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('signed-in-as').filter({ hasText: name }).waitFor();
}

/** Chooses a language by its own name in the sidebar's picker (a native select or a listbox). */
async function chooseLanguage(page: Page, label: string, name: string): Promise<void> {
  const picker = page.getByLabel(label, { exact: true });
  if ((await picker.evaluate((element: any) => element.tagName)) === 'SELECT') {
    await picker.selectOption({ label: name });
  } else {
    await picker.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name, exact: true }).click();
  }
}

const documentLanguage = (page: Page) => page.locator('html').getAttribute('lang');

describe('the editor’s language per person', () => {
  it('German chosen by ada follows her to a fresh browser; vera there stays in English', async () => {
    const server = await startTestServer({ editorDir: builtEditorDir() });
    servers.push(server);
    const first = await fetch(`${server.api}/auth/first-run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ada', password: PASSWORD }),
    });
    expect(first.status).toBe(201);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    const vera = await fetch(`${server.api}/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: server.origin },
      body: JSON.stringify({ name: 'vera', role: 'viewer', password: PASSWORD }),
    });
    expect(vera.status).toBe(201);

    const home = await freshBrowser();
    await signIn(home, server.origin, 'ada');
    expect(await documentLanguage(home)).toBe('en');
    const kept = home.waitForResponse(
      (response) => response.url().endsWith('/api/auth/me') && response.request().method() === 'PATCH',
    );
    await chooseLanguage(home, 'Language', 'Deutsch');
    expect((await kept).status()).toBe(200);
    await home.getByRole('button', { name: 'Neu', exact: true }).waitFor();

    const elsewhere = await freshBrowser();
    await signIn(elsewhere, server.origin, 'ada');
    await elsewhere.getByRole('button', { name: 'Neu', exact: true }).waitFor();
    expect(await documentLanguage(elsewhere)).toBe('de');
    expect(await elsewhere.getByRole('navigation', { name: 'Inhaltstypen' }).count()).toBe(1);

    const other = await freshBrowser();
    await signIn(other, server.origin, 'vera');
    expect(await documentLanguage(other)).toBe('en');
    expect(await other.getByRole('navigation', { name: 'Content types' }).count()).toBe(1);
  });
});
