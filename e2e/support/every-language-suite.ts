import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDITOR_LANGUAGES, type EditorLanguage } from '../../common/editor-language-rules.js';
import { builtEditorDir } from '../../server/config/package-root.js';
import { newsBody } from '../../server/test-support/seed.js';
import { startTestServer, type TestServer } from '../../server/test-support/test-server.js';
import { browserPerFile, openTab } from './editor-harness.js';

/**
 * Each language renders every screen with no missing key: in each editor language, every screen of
 * the editor (and its main dialog) opens with no key asked for that no catalog has (the editor notes
 * them in `window.quireMissingKeys`), and no text, label, title or placeholder shows a raw key
 * (`namespace:key.path`).
 */

/**
 * The languages `npm test` walks: English, the catalogs' source, and French, whose strings are the
 * longest and which has a plural form (`_many`) English lacks. `npm run test:stress` walks them all.
 */
export const REPRESENTATIVE_LANGUAGES: readonly EditorLanguage[] = ['en', 'fr'];

const PASSWORD = 'correct horse battery staple';
/** Many screens a test: room for a machine busy with other suites (a limit, never a measurement). */
const SLOW_MACHINE_MS = 240_000;
const LOCALES = new URL('../../renderer/src/i18n/locales/', import.meta.url);
const NAMESPACES = readdirSync(new URL('en/', LOCALES)).map((file) => file.replace(/\.json$/, ''));
const RAW_KEY = new RegExp(`\\b(?:${NAMESPACES.join('|')}):[A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)+`);

/** A message of a language's catalog, to find a button by what it says in that language. */
function message(language: EditorLanguage, namespace: string, path: string): string {
  const catalog = JSON.parse(readFileSync(new URL(`${language}/${namespace}.json`, LOCALES), 'utf8'));
  return path.split('.').reduce((node, part) => node[part], catalog) as string;
}

/** Waits until a screen has rendered what it loads; `screen` names it when it does not. */
async function settled(page: Page, screen: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .locator('h1, h2')
    .first()
    .waitFor()
    .catch((error: Error) => {
      throw new Error(`${screen} shows no heading: ${error.message}`);
    });
  await page.waitForLoadState('networkidle');
}

/** What a screen shows that could hold a raw key: its text, and the labels, titles and placeholders people read. */
function shownText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const document = (globalThis as any).document;
    const attributes = [...document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')].flatMap(
      (element: any) =>
        ['aria-label', 'title', 'placeholder', 'alt'].map((name) => element.getAttribute(name) ?? '').filter(Boolean),
    );
    return [document.title, document.body.innerText, ...attributes].join('\n');
  });
}

/** Checks the screen now shown: the editor's language, no missing key, no raw key. */
async function checkScreen(page: Page, language: EditorLanguage, screen: string): Promise<void> {
  expect(await page.locator('html').getAttribute('lang'), screen).toBe(language);
  const missing = await page.evaluate(() => [...((globalThis as any).quireMissingKeys ?? ['(no hook)'])]);
  expect(missing, `${language} ${screen}: keys no catalog has`).toEqual([]);
  expect((await shownText(page)).match(RAW_KEY)?.[0], `${language} ${screen}: a raw key shown`).toBeUndefined();
}

/** Opens `path` and checks it. */
async function visit(page: Page, server: TestServer, language: EditorLanguage, path: string): Promise<void> {
  await page.goto(`${server.origin}${path}`);
  await settled(page, path);
  await checkScreen(page, language, path);
}

/**
 * Registers the tests of one file (a browser of its own) for `languages`, every editor language
 * when it names none.
 */
export function everyLanguageSuite(languages: readonly EditorLanguage[] = EDITOR_LANGUAGES): void {
  const { browser, servers, pages } = browserPerFile();

  /** A browser whose editor starts in `language` (chosen on this machine, as the picker would). */
  async function browserIn(language: EditorLanguage): Promise<Page> {
    const { page, context } = await openTab(browser());
    await context.addInitScript((chosen) => {
      (globalThis as any).localStorage.setItem('quire.language', chosen);
    }, language);
    pages.push(page);
    return page;
  }

  describe('each language renders every screen with no missing key', () => {
    let local: TestServer;
    let withAccounts: TestServer;
    let newsId: string;

    // A local site with a row, and one with accounts (ada, an admin).
    beforeAll(async () => {
      local = await startTestServer({ editorDir: builtEditorDir() });
      withAccounts = await startTestServer({ editorDir: builtEditorDir() });
      servers.push(local, withAccounts);
      const made = await fetch(`${local.api}/cms/news`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(newsBody({ title: 'Hafenfest' })),
      });
      expect(made.status).toBe(201);
      newsId = ((await made.json()) as { rows: { id: string }[] }).rows[0].id;
      const first = await fetch(`${withAccounts.api}/auth/first-run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'ada', password: PASSWORD }),
      });
      expect(first.status).toBe(201);
    });

    for (const language of languages) {
      it(
        `${language}: the content screens of the local editor, and the delete dialog`,
        async () => {
          const page = await browserIn(language);
          const row = `/news/rows/${encodeURIComponent(newsId)}`;
          for (const path of ['/news', '/news/new', row, '/news/trash', '/categories', '/no-such-screen']) {
            await visit(page, local, language, path);
          }
          await page.goto(`${local.origin}${row}`);
          await settled(page, row);
          await page.getByRole('button', { name: message(language, 'common', 'actions.delete'), exact: true }).click();
          await page.getByRole('alertdialog').waitFor();
          await checkScreen(page, language, 'the delete dialog');
          await page.keyboard.press('Escape');
        },
        SLOW_MACHINE_MS,
      );

      it(
        `${language}: the settings screens of the local editor`,
        async () => {
          const page = await browserIn(language);
          for (const path of [
            '/settings/content-types',
            '/settings/content-types/new',
            '/settings/content-types/edit/news',
            '/settings/accounts',
            '/settings/hooks',
            '/settings/audit',
            '/settings/languages',
            '/settings/api',
          ]) {
            await visit(page, local, language, path);
          }
        },
        SLOW_MACHINE_MS,
      );

      it(
        `${language}: sign-in, and the screens of a signed-in admin`,
        async () => {
          const page = await browserIn(language);
          await visit(page, withAccounts, language, '/news');
          await page.getByLabel(message(language, 'pages-sign-in', 'name'), { exact: true }).fill('ada');
          await page.getByLabel(message(language, 'pages-sign-in', 'password'), { exact: true }).fill(PASSWORD);
          await page.locator('form button[type="submit"]').click();
          await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();
          for (const path of ['/news', '/settings/accounts', '/settings/security', '/settings/audit']) {
            await visit(page, withAccounts, language, path);
          }
        },
        SLOW_MACHINE_MS,
      );
    }
  });
}
