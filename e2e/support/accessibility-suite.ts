import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ContentRow, CreateRowResponse } from '../../common/api-contract.js';
import { builtEditorDir } from '../../server/config/package-root.js';
import { startTestServer, type TestServer } from '../../server/test-support/test-server.js';
import { uploadPng } from './article-seed.js';
import { accessibilityWalk, expectAccessible } from './axe-check.js';
import { launchBrowser, openTab, saveFailureScreenshot } from './editor-harness.js';
import { landscapePng } from './png-image.js';

/**
 * axe-core over every screen and dialog of the editor at 1440 px: no serious or critical WCAG 2.x
 * A/AA violation. Per theme, one server on a new database walked through in order as a person
 * would meet it: the starter choice, the first account, accounts and tokens, two-factor setup and
 * sign-in, content types, a list, a row with every field type, history and its dialogs,
 * scheduling, delete and the trash, hooks, the audit log, the API reference, the list and its menu
 * at a phone's width, and the other theme chosen over the system's; then the API-token dialog of a
 * server that requires one.
 */

/** An editor theme, as the system asks for it (`prefers-color-scheme`). */
export type Theme = 'light' | 'dark';

/**
 * The themes `npm test` walks every screen in: the light one. The dark palette meets axe there too,
 * on the News list (the walk's last step chooses it over the system's) and the API-token dialog
 * (always in both); `npm run test:stress` walks every screen in both themes.
 */
export const REPRESENTATIVE_THEMES: readonly Theme[] = ['light'];

/** Both themes. */
export const THEMES: readonly Theme[] = ['light', 'dark'];

const PASSWORD = 'correct horse battery staple';
const VIEWPORT = { width: 1440, height: 900 };
const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** A content type with one field of every type, so the row editor shows each widget. */
const EVERY_FIELD = {
  title: 'Everything',
  columns: [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
    {
      name: 'status',
      label: 'Status',
      type: 'select',
      required: true,
      options: [
        { id: 'draft', text: 'Draft' },
        { id: 'published', text: 'Published' },
      ],
    },
    { name: 'published_at', label: 'Published at', type: 'datetime', required: false },
    { name: 'summary', label: 'Summary', type: 'textarea', required: false },
    { name: 'body', label: 'Body', type: 'markdown', required: false },
    { name: 'rating', label: 'Rating', type: 'number', required: false },
    { name: 'featured', label: 'Featured', type: 'boolean', required: false },
    { name: 'day', label: 'Day', type: 'date', required: false },
    { name: 'image', label: 'Image', type: 'image', required: false },
    { name: 'tags', label: 'Tags', type: 'tags', required: false },
    { name: 'category', label: 'Category', type: 'relation', required: false, target: 'categories' },
  ],
};

async function call<T>(server: TestServer, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.api}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed with ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

const create = async (server: TestServer, type: string, values: Record<string, unknown>): Promise<ContentRow> =>
  (await call<CreateRowResponse>(server, 'POST', `/cms/${type}`, values)).rows[0];

/** Content for every screen, made through the API while the site has no accounts yet. */
async function seed(server: TestServer): Promise<{ row: ContentRow; binned: ContentRow }> {
  await call(server, 'POST', '/cms-content', EVERY_FIELD);
  const category = await create(server, 'categories', { title: 'Harbour' });
  const image = await uploadPng(server.api, landscapePng(480, 300), 'harbour.png');
  const row = await create(server, 'everything', {
    title: 'The harbour festival',
    status: 'draft',
    published_at: '2026-06-01 09:00:00',
    summary: 'Boats, music and fish soup.',
    body: '# The programme\n\nThe **regatta** at dawn, then [the jazz stage](https://example.com).\n\n- Boats\n- Music',
    rating: 4.5,
    featured: true,
    day: '2026-06-01',
    image: image.path,
    tags: ['festival', 'harbour'],
    category: category.id,
  });
  await call(server, 'PUT', `/cms/everything/${row.id}`, { title: 'The harbour festival, revised' });
  await call(server, 'POST', `/cms/everything/${row.id}/schedule`, { status: 'published', at: '2030-06-01 09:30:00' });
  const binned = await create(server, 'news', {
    title: 'Market hall closes',
    status: 'draft',
    published_at: '2026-01-05 09:00:00',
  });
  for (let n = 1; n <= 3; n += 1) {
    await create(server, 'news', {
      title: `Harbour news ${n}`,
      status: 'published',
      published_at: '2026-01-05 09:00:00',
    });
  }
  await call(server, 'POST', '/hooks', { url: 'http://127.0.0.1:9/rebuild', content_types: ['news'] });
  return { row, binned };
}

/** Registers the tests of one file: every screen walked in each of `themes`, and the API-token dialog in both. */
export function accessibilitySuite(themes: readonly Theme[]): void {
  for (const theme of themes) {
    // Each step walks several screens and runs axe on each: minutes on a busy machine.
    describe(`every screen in the ${theme} theme`, { timeout: 180_000 }, () => {
      let server: TestServer;
      let page: Page;
      let close: () => Promise<void>;
      let secret = '';
      let seeded: { row: ContentRow; binned: ContentRow };
      const url = (path: string) => `${server.origin}${path}`;
      const axe = accessibilityWalk();
      // The server's clock is the test's: each sign-in step moves it on, so no code is used twice.
      const clock = { ms: Date.UTC(2026, 10, 28, 21, 0, 5) };
      /** The code an authenticator app shows at the server's now. */
      const appCode = () => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.ms });

      beforeAll(async () => {
        server = await startTestServer({
          editorDir: builtEditorDir(),
          twoFactor: { requirement: null, now: () => clock.ms },
        });
        const browser = await launchBrowser();
        const tab = await openTab(browser, { viewport: VIEWPORT, colorScheme: theme, reducedMotion: 'reduce' });
        page = tab.page;
        // Where a CSP violation happened, to tell which screen broke the policy.
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) tab.problems.push(`  at ${page.url()}`);
        });
        close = async () => {
          await browser.close();
          await server.dispose();
          expect(tab.problems).toEqual([]);
        };
      });
      afterAll(async () => {
        await close?.();
      });
      afterEach(async (context) => {
        if (context.task.result?.state === 'fail') await saveFailureScreenshot(page, `${theme} ${context.task.name}`);
      });

      it('the first run’s starter choice', async () => {
        await page.goto(url('/'));
        await page.getByRole('heading', { level: 1, name: 'How should this site start?' }).waitFor();
        await axe.check(page, 'the starter choice');
        await button(page, 'Keep the starter types').click();
        await page.waitForURL(/\/news$/);
        seeded = await seed(server);
        axe.verify();
      });

      it('the list, with its filters', async () => {
        await page.goto(url('/news'));
        await page
          .getByRole('table')
          .getByRole('row', { name: /Harbour news 1/ })
          .waitFor();
        await axe.check(page, 'the News list');
        axe.verify();
      });

      it('the first-run account form, then the accounts screen', async () => {
        await page.goto(url('/settings/accounts'));
        await page.getByRole('heading', { name: 'Create the first account' }).waitFor();
        await axe.check(page, 'the first-run account form');
        await field(page, 'Name').fill('ada');
        await field(page, 'Password').fill(PASSWORD);
        await field(page, 'Password again').fill(PASSWORD);
        await button(page, 'Create account and sign in').click();
        await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();
        await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
        await field(page, 'Name').fill('aldo');
        await field(page, 'Password').fill(PASSWORD);
        await button(page, 'Add account').click();
        await page.getByRole('cell', { name: 'aldo', exact: true }).first().waitFor();
        await field(page, 'Token name').fill('site-build');
        await button(page, 'Add token').click();
        await page.getByText(/Copy it now/).waitFor();
        await axe.check(page, 'the accounts screen with a new token shown');
        axe.verify();
      });

      it('account security: two-factor setup and its recovery codes', async () => {
        await page.getByRole('link', { name: 'Security' }).click();
        await page.getByRole('heading', { name: 'Two-factor sign-in is off' }).waitFor();
        await axe.check(page, 'account security (off)');
        await button(page, 'Set up two-factor sign-in').click();
        await page.getByRole('img', { name: 'QR code to add Quire to an authenticator app' }).waitFor();
        secret = ((await page.getByTestId('two-factor-secret').textContent()) ?? '').trim();
        await axe.check(page, 'two-factor setup');
        await field(page, 'Then enter the six-digit code the app shows').fill(appCode());
        await button(page, 'Turn on').click();
        await page.getByRole('heading', { name: 'Two-factor sign-in is on: save your recovery codes' }).waitFor();
        await axe.check(page, 'the recovery codes');
        await button(page, 'I have saved them').click();
        await page.getByRole('heading', { name: 'Two-factor sign-in is on' }).waitFor();
        await axe.check(page, 'account security (on)');
        axe.verify();
      });

      it('sign-in, and its two-factor step', async () => {
        await button(page, 'Sign out').click();
        await page.getByRole('heading', { name: 'Sign in' }).waitFor();
        await axe.check(page, 'sign-in');
        await field(page, 'Name').fill('ada');
        await field(page, 'Password').fill('not the password');
        await button(page, 'Sign in').click();
        await page.getByRole('alert').waitFor();
        await axe.check(page, 'sign-in with an error');
        await field(page, 'Password').fill(PASSWORD);
        await button(page, 'Sign in').click();
        await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
        await axe.check(page, 'the two-factor step');
        clock.ms += 60_000;
        await field(page, 'Code').fill(appCode());
        await button(page, 'Verify and sign in').click();
        await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();
        axe.verify();
      });

      it('content types, the type editor and its confirmation', async () => {
        await page.goto(url('/settings/content-types'));
        await page.getByRole('heading', { name: 'Content types', level: 1 }).waitFor();
        await axe.check(page, 'the content types');
        await page.goto(url('/settings/content-types/edit/everything'));
        await page.getByRole('group', { name: 'Field 12: Category' }).waitFor();
        await axe.check(page, 'the type editor');
        await page.getByRole('group', { name: 'Field 9: Day' }).getByRole('button', { name: 'Remove field' }).click();
        await page.getByRole('alertdialog').waitFor();
        await axe.check(page, 'the remove-field confirmation');
        await button(page.getByRole('alertdialog'), 'Cancel').click();
        await page.goto(url('/settings/content-types/new'));
        await field(page, 'Title').waitFor();
        await axe.check(page, 'a new content type');
        axe.verify();
      });

      it('a row with every field type, its Markdown preview and its schedule', async () => {
        await page.goto(url(`/everything/rows/${seeded.row.id}`));
        await page.getByRole('img', { name: 'Image preview' }).waitFor();
        await page.getByRole('button', { name: 'Split', exact: true }).click();
        await page.getByRole('region', { name: 'Body preview' }).getByRole('heading').first().waitFor();
        await button(page, 'Edit SEO').click();
        await axe.check(page, 'the row editor with every field type');
        await button(page, 'Schedule').click();
        await page.getByRole('dialog', { name: 'Schedule a change' }).waitFor();
        await axe.check(page, 'the schedule dialog');
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await page.goto(url('/everything/new'));
        await field(page, 'Title').waitFor();
        await button(page, 'Save').click();
        await page.getByRole('alert').first().waitFor();
        await axe.check(page, 'a new row with errors');
        axe.verify();
      });

      it('history: the compare dialog and the restore confirmation', async () => {
        await page.goto(url(`/everything/rows/${seeded.row.id}`));
        await page.getByRole('button', { name: /^Created/ }).click();
        await page.getByRole('dialog').getByRole('table').waitFor();
        await axe.check(page, 'the compare dialog');
        await button(page, 'Restore this version').click();
        await page.getByRole('alertdialog', { name: 'Restore this version?' }).waitFor();
        await axe.check(page, 'the restore confirmation');
        await page.keyboard.press('Escape');
        axe.verify();
      });

      it('the delete confirmation and the trash', async () => {
        await page.goto(url(`/news/rows/${seeded.binned.id}`));
        await button(page, 'Delete').click();
        await page.getByRole('alertdialog').waitFor();
        await axe.check(page, 'the delete confirmation');
        await button(page.getByRole('alertdialog'), 'Delete').click();
        await page.waitForURL(/\/news$/);
        await page.goto(url('/news/trash'));
        await page.getByRole('row', { name: /Market hall closes/ }).waitFor();
        await axe.check(page, 'the trash');
        axe.verify();
      });

      it('hooks, the audit log and the API reference', async () => {
        await page.goto(url('/settings/hooks'));
        await page.getByTestId('hook').first().waitFor();
        await axe.check(page, 'hooks');
        await page.goto(url('/settings/audit'));
        await page.getByRole('table').waitFor();
        await axe.check(page, 'the audit log');
        await page.goto(url('/settings/api'));
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.getByRole('heading', { level: 2 }).first().waitFor();
        await axe.check(page, 'the API reference');
        axe.verify();
      });

      it('the keyboard shortcuts dialog, and a phone’s width with the menu open', async () => {
        await page.goto(url('/news'));
        await page.getByRole('table').waitFor();
        await page.keyboard.press('?');
        await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
        await axe.check(page, 'the keyboard shortcuts dialog');
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await page.setViewportSize({ width: 390, height: 800 });
        try {
          await page.getByRole('table').waitFor();
          await axe.check(page, 'the list on a phone');
          await button(page, 'Menu').click();
          await page.getByRole('link', { name: /^Articles/ }).waitFor();
          await axe.check(page, 'the folded sidebar, opened on a phone');
        } finally {
          await page.setViewportSize(VIEWPORT);
        }
        axe.verify();
      });

      it('the theme chosen in the sidebar, over the system’s', async () => {
        const other = theme === 'light' ? 'dark' : 'light';
        await page.goto(url('/news'));
        const picker = page.getByRole('combobox', { name: 'Theme' });
        const choose = async (name: string) => {
          await picker.click();
          await page.getByRole('option', { name }).click();
        };
        await choose(other === 'dark' ? 'Dark' : 'Light');
        expect(await page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme)).toBe(other);
        await page.reload();
        await page.getByRole('table').waitFor();
        expect(await picker.textContent()).toBe(other === 'dark' ? 'Dark' : 'Light');
        expect(await page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme)).toBe(other);
        await axe.check(page, `the News list in the ${other} theme chosen over the system's ${theme}`);
        await choose('System');
        expect(await page.evaluate(() => (globalThis as any).localStorage.getItem('quire.theme'))).toBeNull();
        axe.verify();
      });
    });
  }

  describe('the API token dialog', () => {
    it('is accessible in both themes', async () => {
      const guarded = await startTestServer({ editorDir: builtEditorDir(), token: 'open-sesame-0123456789' });
      const browser = await launchBrowser();
      try {
        for (const theme of THEMES) {
          const { page, context } = await openTab(browser, {
            viewport: VIEWPORT,
            colorScheme: theme,
            reducedMotion: 'reduce',
          });
          await page.goto(`${guarded.origin}/news`);
          await page.getByRole('dialog', { name: 'This Quire server needs an API token' }).waitFor();
          await expectAccessible(page, `the API token dialog (${theme})`);
          await context.close();
        }
      } finally {
        await browser.close();
        await guarded.dispose();
      }
    });
  });
}
