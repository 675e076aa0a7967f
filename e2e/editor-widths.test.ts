import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEAM_PASSWORD } from '../server/test-support/team-fixture.js';
import { editorSuite } from './support/editor-harness.js';

/**
 * Every screen of the editor at a desktop, a small laptop and a phone width: the page never scrolls
 * sideways (a table may scroll inside its own card when it says so with `data-scrolls="inline"`),
 * header cells do not overlap, and the headers and titles a list keeps are not cut to a stub.
 */

const suite = editorSuite();

/** Desktop, a small laptop window, a phone. */
const WIDTHS = [1440, 800, 390] as const;
const HEIGHT = 900;

/** Fewest characters a kept column's header or a row's title shows before an ellipsis cuts it. */
const MIN_VISIBLE_CHARS = 8;

/** What the page's layout does wrong at the current width, one line a problem. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate((minChars) => {
    // Runs in the page: its DOM, typed loosely (the test project has no DOM library).
    const document = (globalThis as any).document;
    const styleOf = (element: any) => (globalThis as any).getComputedStyle(element);
    const all = (selector: string, within: any = document): any[] => Array.from(within.querySelectorAll(selector));
    const visible = (element: any) => element.getClientRects().length > 0;
    const problems: string[] = [];
    const overflows = (element: any) => element.scrollWidth > element.clientWidth + 1;
    const name = (element: any) =>
      `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}`;
    const shownChars = (element: any, text: string) =>
      Math.floor((text.length * element.clientWidth) / element.scrollWidth);
    const root = document.scrollingElement;
    if (overflows(root)) problems.push(`the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth})`);
    const main = document.querySelector('main');
    if (main && overflows(main))
      problems.push(`the main area scrolls sideways (${main.scrollWidth} > ${main.clientWidth})`);
    // Anything that reaches past the window, unless it sits in a card made to scroll sideways.
    const width = document.documentElement.clientWidth;
    for (const element of all('main *, [role="dialog"] *')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1) continue;
      if (element.closest('[data-scrolls="inline"]') || styleOf(element).position === 'fixed') continue;
      problems.push(`${name(element)} ends at ${Math.round(box.right)} px, past the window (${width} px)`);
      break;
    }
    for (const table of all('table').filter(visible)) {
      const cells = all('thead th', table).filter(visible);
      const boxes = cells.map((cell) => cell.getBoundingClientRect());
      for (let i = 1; i < boxes.length; i++) {
        if (boxes[i].left < boxes[i - 1].right - 1 && boxes[i].top < boxes[i - 1].bottom - 1) {
          problems.push(`header cells "${cells[i - 1].textContent}" and "${cells[i].textContent}" overlap`);
        }
      }
      for (const cell of cells) {
        const label = cell.querySelector('.th-button, .th-label') ?? cell;
        const text = (label.textContent ?? '').trim();
        if (!text || !overflows(label)) continue;
        const shown = shownChars(label, text);
        if (shown < Math.min(text.length, minChars)) problems.push(`header "${text}" is cut to ${shown} characters`);
      }
    }
    for (const link of all('.row-link').filter(visible).slice(0, 5)) {
      const text = (link.textContent ?? '').trim();
      if (!overflows(link)) continue;
      const shown = shownChars(link, text);
      if (shown < Math.min(text.length, minChars)) problems.push(`the title "${text}" is cut to ${shown} characters`);
    }
    return problems;
  }, MIN_VISIBLE_CHARS);
}

/**
 * Opens `path`, waits for `ready`, and collects what its layout does wrong at each width. The
 * editor lays out by CSS alone (media and container queries, no script that measures the window),
 * so the page resized to a width is laid out as one opened at it: one load a screen, not one a width.
 */
async function checkScreen(page: Page, screen: string, path: string, ready: (page: Page) => Promise<unknown>) {
  const problems: string[] = [];
  await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
  await page.goto(suite.url(path));
  await ready(page);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    for (const problem of await layoutProblems(page)) problems.push(`${screen} at ${width} px: ${problem}`);
  }
  return problems;
}

const heading = (name: string | RegExp) => (page: Page) =>
  page
    .getByRole('heading', { name, exact: typeof name === 'string' })
    .first()
    .waitFor();

/** The rows the screens show: a long title among short ones, its history, and a deleted row. */
let articleId = '';

beforeAll(async () => {
  const article = await suite.api.create('articles', {
    title: 'Arthur’s guide to the harbour walks of the northern coast',
    status: 'published',
    published_at: '2026-01-05 09:00:00',
    body: 'A long walk.',
  });
  articleId = article.id;
  const changed = await fetch(`${suite.server.api}/cms/articles/${article.id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ body: 'A longer walk, with a view of the lighthouse.' }),
  });
  expect(changed.status).toBe(200);
  for (let n = 1; n <= 3; n++) {
    await suite.api.create('articles', {
      title: `Walk number ${n} along the cliffs and the old lighthouse`,
      status: 'draft',
      published_at: '2026-01-06 09:00:00',
    });
  }
  const gone = await suite.api.create('news', {
    title: 'Yesterday’s news',
    status: 'draft',
    published_at: '2026-01-04 09:00:00',
  });
  expect((await fetch(`${suite.server.api}/cms/news/${gone.id}`, { method: 'DELETE' })).status).toBe(200);
});

const historyItems = (page: Page) => page.getByRole('region', { name: 'History' }).getByRole('listitem');

/** Every screen of the editor without accounts: its path and what shows once it has loaded. */
const SCREENS: { screen: string; path: () => string; ready(page: Page): Promise<unknown> }[] = [
  { screen: 'types', path: () => '/settings/content-types', ready: heading('Content types') },
  { screen: 'type editor', path: () => '/settings/content-types/edit/articles', ready: heading(/Articles/) },
  { screen: 'list', path: () => '/articles', ready: (page) => page.locator('.row-link').first().waitFor() },
  {
    screen: 'row editor and its history',
    path: () => `/articles/rows/${articleId}`,
    ready: (page) => historyItems(page).first().waitFor(),
  },
  {
    screen: 'history comparison',
    path: () => `/articles/rows/${articleId}`,
    ready: async (page) => {
      await historyItems(page).last().getByRole('button').click();
      await page.getByRole('dialog').getByRole('table').waitFor();
    },
  },
  { screen: 'trash', path: () => '/news/trash', ready: (page) => page.getByText('Yesterday’s news').waitFor() },
  { screen: 'accounts (first run)', path: () => '/settings/accounts', ready: heading(/account/i) },
  { screen: 'hooks', path: () => '/settings/hooks', ready: heading('Hooks') },
  { screen: 'audit', path: () => '/settings/audit', ready: heading(/Audit/) },
  { screen: 'languages', path: () => '/settings/languages', ready: heading('Languages') },
  { screen: 'API reference', path: () => '/settings/api', ready: heading('API') },
];

describe('the editor at 1440, 800 and 390 px', () => {
  for (const { screen, path, ready } of SCREENS) {
    it(`lays out ${screen} without sideways scrolling, overlapping or cut headers`, async () => {
      expect(await checkScreen(suite.page, screen, path(), ready)).toEqual([]);
    });
  }

  it('lays out the sign-in page once accounts exist', async () => {
    const first = await fetch(`${suite.server.api}/auth/first-run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: suite.server.origin },
      body: JSON.stringify({ name: 'ada', password: TEAM_PASSWORD }),
    });
    expect(first.status).toBe(201);
    expect(await checkScreen(suite.page, 'sign-in', '/', heading('Sign in'))).toEqual([]);
  });
});
