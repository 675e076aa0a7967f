import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtEditorDir } from '../server/config/package-root.js';
import { sessionCookie } from '../server/test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { expectAccessible } from './support/axe-check.js';
import { browserPerFile, openTab } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

/**
 * Settings › Languages in the editor: an admin adds languages (the label offered in the language's
 * own name), orders a fallback chain with the keyboard, sets the default, saves; removing a language
 * that holds values asks first; a viewer reads the languages without controls; a save over another
 * admin's newer save is refused and shows theirs.
 */

const PASSWORD = 'correct horse battery staple';
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

const { browser, servers, pages } = browserPerFile();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ editorDir: builtEditorDir() });
  servers.push(server);
});

async function tab() {
  const opened = await openTab(browser());
  pages.push(opened.page);
  return opened;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin, ...headers },
    body: JSON.stringify(body),
  });
}

async function signIn(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await field(page, 'Name').fill(name);
  await field(page, 'Password').fill(PASSWORD);
  await button(page, 'Sign in').click();
  await page.getByTestId('signed-in-as').filter({ hasText: name }).waitFor();
}

async function locales(cookie: string): Promise<unknown> {
  return (await fetch(`${server.api}/locales`, { headers: { cookie } })).json();
}

/** The fallback chain of a locale's card, as the codes it lists in order. */
async function chainOf(page: Page, code: string): Promise<string[]> {
  const items = page.locator(`[data-locale="${code}"] .fallback-item .locale-code`);
  return items.allTextContents();
}

describe('the Languages screen', () => {
  it('lets an admin add languages, order a fallback chain by keyboard, save, and remove with a confirmation', async () => {
    const first = await post('/auth/first-run', { name: 'ada', password: PASSWORD });
    expect(first.status).toBe(201);
    const ada = sessionCookie(first) as string;
    expect(
      (await post('/accounts', { name: 'vera', role: 'viewer', password: PASSWORD }, { cookie: ada })).status,
    ).toBe(201);

    const admin = await tab();
    const page = admin.page;
    await page.goto(`${server.origin}/news`);
    await signIn(page, 'ada');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Languages' }).click();
    await page.getByRole('heading', { name: 'Languages', level: 1 }).waitFor();
    expect(page.url()).toBe(`${server.origin}/settings/languages`);
    await page.locator('[data-locale="en"]').waitFor();

    // The label is offered in the language's own name; a code is kept in canonical case.
    await field(page, 'Code').fill('de');
    await expect.poll(() => field(page, 'Label').last().inputValue()).toBe('Deutsch');
    await button(page, 'Add language').click();
    await field(page, 'Code').fill('de-at');
    await field(page, 'Label').last().fill('Deutsch (Österreich)');
    await button(page, 'Add language').click();
    await page.locator('[data-locale="de-AT"]').waitFor();
    await field(page, 'Code').fill('not a code');
    await button(page, 'Add language').click();
    await page.getByRole('alert').filter({ hasText: 'Enter a BCP 47 language tag' }).waitFor();
    await field(page, 'Code').fill('');

    // de falls back to English; de-AT to English, then German, reordered with the keyboard.
    const de = page.locator('[data-locale="de"]');
    await chooseOption(de.getByLabel('Add a fallback'), 'English (en)');
    await de.getByRole('button', { name: 'Add', exact: true }).click();
    const at = page.locator('[data-locale="de-AT"]');
    await chooseOption(at.getByLabel('Add a fallback'), 'English (en)');
    await at.getByRole('button', { name: 'Add', exact: true }).click();
    await chooseOption(at.getByLabel('Add a fallback'), 'Deutsch (de)');
    await at.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await chainOf(page, 'de-AT')).toEqual(['en', 'de']);
    await at.getByRole('button', { name: 'Move Deutsch up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => chainOf(page, 'de-AT')).toEqual(['de', 'en']);
    // Focus stays with the moved entry (its Move up is disabled now: on its Move down).
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label')))
      .toBe('Move Deutsch down');
    // A label left empty is named under it, and nothing can be saved until it has one.
    await de.getByLabel('Label', { exact: true }).fill('');
    await de.getByText('Label must be a non-empty string of at most 100 characters').waitFor();
    expect(await button(page, 'Save languages').isDisabled()).toBe(true);
    await de.getByLabel('Label', { exact: true }).fill('Deutsch');
    await expectAccessible(page, 'the Languages screen with unsaved changes');

    await button(page, 'Save languages').click();
    await page.getByRole('status').filter({ hasText: 'Languages saved' }).waitFor();
    expect(await locales(ada)).toEqual({
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch', fallback: ['en'] },
        { code: 'de-AT', label: 'Deutsch (Österreich)', fallback: ['de', 'en'] },
      ],
    });

    // Removing a language that holds values asks first, then removes it with its values. No column
    // is translated yet, so the server's refusal is played here by the page's network.
    let refused = 0;
    await page.route('**/api/locales', async (route) => {
      const request = route.request();
      if (request.method() !== 'PUT' || request.url().includes('force=true')) return route.continue();
      refused += 1;
      return route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            status: 409,
            code: 'conflict',
            message: 'de-AT still holds 3 values',
            detail: { code: 'locale_in_use', locales: ['de-AT'], count: 3 },
          },
        }),
      });
    });
    await at.getByRole('button', { name: 'Remove Deutsch (Österreich)' }).click();
    await button(page, 'Save languages').click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove languages that hold content?' });
    await dialog.getByText('Content in de-AT: 3 values.').waitFor();
    // The dialog fades in: axe reads colours once it has.
    await page.waitForFunction(() =>
      (globalThis as any).document.getAnimations().every((animation: any) => animation.playState !== 'running'),
    );
    await expectAccessible(page, 'the Languages screen asking before removing');
    await dialog.getByRole('button', { name: 'Remove and delete their content' }).click();
    // The first save's notice may still show: the stored locales say when the forced save is done.
    await page.getByRole('status').filter({ hasText: 'Languages saved' }).waitFor();
    await expect
      .poll(() => locales(ada))
      .toEqual({
        default: 'en',
        locales: [
          { code: 'en', label: 'English' },
          { code: 'de', label: 'Deutsch', fallback: ['en'] },
        ],
      });
    expect(refused).toBe(1);
    expect(admin.problems).toEqual([]);

    // A viewer reads the languages, with nothing to change.
    const viewer = await tab();
    await viewer.page.goto(`${server.origin}/news`);
    await signIn(viewer.page, 'vera');
    await viewer.page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Languages' }).click();
    await viewer.page.getByText('Admins change the languages.').waitFor();
    await viewer.page.getByText('Falls back to English').waitFor();
    expect(await viewer.page.getByTestId('locale').count()).toBe(2);
    expect(await button(viewer.page, 'Save languages').count()).toBe(0);
    expect(await viewer.page.getByRole('textbox').count()).toBe(0);
    await expectAccessible(viewer.page, 'the Languages screen, read only');
    expect(viewer.problems).toEqual([]);
  });

  it('refuses a save over languages another admin saved meanwhile, shows theirs, and saves over them once loaded', async () => {
    // ada is the admin the test above made; the languages are English and Deutsch.
    const signedIn = await post('/auth/sign-in', { name: 'ada', password: PASSWORD });
    const ada = sessionCookie(signedIn) as string;
    const admin = await tab();
    const page = admin.page;
    await page.goto(`${server.origin}/settings/languages`);
    await signIn(page, 'ada');
    await page.locator('[data-locale="de"]').waitFor();

    // Another admin adds French after this screen read the languages.
    const read = await fetch(`${server.api}/locales`, { headers: { cookie: ada } });
    const theirs = {
      default: 'en',
      locales: [...((await read.json()) as { locales: unknown[] }).locales, { code: 'fr', label: 'Français' }],
    };
    const written = await fetch(`${server.api}/locales`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: server.origin, cookie: ada },
      body: JSON.stringify(theirs),
    });
    expect(written.status).toBe(200);

    const de = page.locator('[data-locale="de"]');
    await de.getByLabel('Label', { exact: true }).fill('Deutsch (Deutschland)');
    await button(page, 'Save languages').click();
    const stale = page.getByRole('alert').filter({ hasText: 'Someone changed the languages meanwhile' });
    await stale.waitFor();
    expect(await stale.getByTestId('current-locale').locator('.locale-code').allTextContents()).toEqual([
      'en',
      'de',
      'fr',
    ]);
    expect(await button(page, 'Save languages').isDisabled()).toBe(true);
    expect(await locales(ada)).toEqual(theirs);
    await expectAccessible(page, 'the Languages screen after a stale save');

    await stale.getByRole('button', { name: 'Load the current languages (your changes are dropped)' }).click();
    await page.locator('[data-locale="fr"]').waitFor();
    expect(await stale.count()).toBe(0);
    expect(await de.getByLabel('Label', { exact: true }).inputValue()).toBe('Deutsch');
    await de.getByLabel('Label', { exact: true }).fill('Deutsch (Deutschland)');
    await button(page, 'Save languages').click();
    await page.getByRole('status').filter({ hasText: 'Languages saved' }).waitFor();
    expect(await locales(ada)).toEqual({
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch (Deutschland)', fallback: ['en'] },
        { code: 'fr', label: 'Français' },
      ],
    });
    expect(admin.problems).toEqual([]);
  });
});
