import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtEditorDir } from '../server/config/package-root.js';
import { request } from '../server/test-support/api-scenario.js';
import { type Credentials, makeTeam } from '../server/test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { browserPerFile, openTab } from './support/editor-harness.js';

/**
 * Read-only states for each role in Chromium: where a person cannot write, the row's page says why
 * once, its fields, toolbars and field buttons are disabled and its Save, Delete and restore are
 * not there; where they can, it is editable. Admin and editor change anyone's rows, an author only
 * their own, a viewer none (and creates none); accounts and hooks are for admins alone. The server
 * still refuses the writes the page does not offer.
 */

const NOT_YOURS = 'You can read this row; only its author and editors can change it.';
const CANNOT_CHANGE = 'You can read this row; your account can read content but not change it.';
const CANNOT_CREATE = 'Your account can read content but not create rows.';

const { browser, servers, pages } = browserPerFile();

/** A tab signed in as the team's member of `role` (their session cookie set in its own context). */
async function tabAs(server: TestServer, team: Credentials, role: string): Promise<{ page: Page; problems: string[] }> {
  const opened = await openTab(browser());
  pages.push(opened.page);
  const [cookieName, value] = team[role].cookie.split('=');
  await opened.context.addCookies([{ name: cookieName, value, url: server.origin }]);
  return opened;
}

/** Creates an article as the team's member of `role` and returns its id. */
async function articleBy(server: TestServer, team: Credentials, role: string, title: string): Promise<string> {
  const json = { title, status: 'draft', published_at: '2026-01-05 09:00:00', body: 'Words', tags: ['harbour'] };
  const { response, body, text } = await request(server, 'POST', '/cms/articles', { json, headers: team[role] });
  expect(response.status, text).toBe(201);
  return body.rows[0].id as string;
}

/** The controls of the row's fields (inputs, toolbars, field buttons) that can be used. */
const enabledControls = (page: Page) =>
  page
    .locator('#row-form .editor-fields')
    .evaluate(
      (fields: any) =>
        [...fields.querySelectorAll('input, textarea, select, button')].filter(
          (control: any) => !control.matches(':disabled'),
        ).length,
    );

/** Opens a row's page and waits for its form. */
async function openRow(page: Page, server: TestServer, id: string): Promise<void> {
  await page.goto(`${server.origin}/articles/rows/${id}`);
  await page.getByLabel('Title', { exact: true }).waitFor();
}

async function expectEditable(page: Page): Promise<void> {
  expect(await page.getByRole('note').count()).toBe(0);
  expect(await page.getByText('Read only', { exact: true }).count()).toBe(0);
  expect(await page.getByLabel('Title', { exact: true }).isEditable()).toBe(true);
  expect(await enabledControls(page)).toBeGreaterThan(5);
  expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
}

async function expectReadOnly(page: Page, reason: string): Promise<void> {
  // The reason is said once, in the note above the fields.
  await page.getByRole('note').filter({ hasText: reason }).waitFor();
  expect(await page.getByText(reason).count()).toBe(1);
  expect(await page.getByLabel('Title', { exact: true }).isDisabled()).toBe(true);
  expect(await page.getByLabel('Body', { exact: true }).isDisabled()).toBe(true);
  expect(await enabledControls(page)).toBe(0);
  for (const name of ['Save', 'Delete']) {
    expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
  }
}

describe('read-only states for each role', () => {
  let server: TestServer;
  let team: Credentials;
  let adas: string;
  let aldos: string;

  beforeAll(async () => {
    server = await startTestServer({ editorDir: builtEditorDir() });
    servers.push(server);
    team = await makeTeam(server);
    adas = await articleBy(server, team, 'admin', 'Ada’s article');
    aldos = await articleBy(server, team, 'author', 'Aldo’s article');
  });

  it('admin and editor: anyone’s row is theirs to change', async () => {
    const admin = await tabAs(server, team, 'admin');
    await openRow(admin.page, server, aldos);
    await expectEditable(admin.page);
    const editor = await tabAs(server, team, 'editor');
    await openRow(editor.page, server, adas);
    await expectEditable(editor.page);
    for (const { problems } of [admin, editor]) expect(problems).toEqual([]);
  });

  it('author: someone else’s row is read-only with the reason once, their own editable', async () => {
    const author = await tabAs(server, team, 'author');
    await openRow(author.page, server, aldos);
    await expectEditable(author.page);
    await openRow(author.page, server, adas);
    await expectReadOnly(author.page, NOT_YOURS);
    expect(await author.page.getByText('Read only', { exact: true }).count()).toBe(1);
    // History still opens a version, but offers no restore.
    await author.page.getByRole('region', { name: 'History' }).getByRole('button').first().click();
    await author.page.getByRole('dialog').getByRole('table').waitFor();
    expect(await author.page.getByRole('button', { name: 'Restore this version' }).count()).toBe(0);
    await author.page.keyboard.press('Escape');
    // The server refuses what the page does not offer.
    const forged = await author.page.evaluate(
      async (id) =>
        (
          await fetch(`/api/cms/articles/${id}`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ title: 'Taken over' }),
          })
        ).status,
      adas,
    );
    expect(forged).toBe(403);
    expect(author.problems).toEqual([]);
  });

  it('viewer: every row read-only, no New, and a new row’s page says they cannot create one', async () => {
    const viewer = await tabAs(server, team, 'viewer');
    await openRow(viewer.page, server, aldos);
    await expectReadOnly(viewer.page, CANNOT_CHANGE);
    expect(await viewer.page.getByRole('button', { name: 'New', exact: true }).count()).toBe(0);
    await viewer.page.goto(`${server.origin}/articles`);
    await viewer.page.getByRole('row', { name: /Ada’s article/ }).waitFor();
    expect(await viewer.page.getByRole('button', { name: 'New', exact: true }).count()).toBe(0);
    await viewer.page.goto(`${server.origin}/articles/new`);
    await viewer.page.getByRole('note').filter({ hasText: CANNOT_CREATE }).waitFor();
    expect(await enabledControls(viewer.page)).toBe(0);
    expect(viewer.problems).toEqual([]);
  });

  it('editor: accounts and hooks are for admins alone, said with nothing to change', async () => {
    const editor = await tabAs(server, team, 'editor');
    await editor.page.goto(`${server.origin}/settings/accounts`);
    await editor.page.getByRole('heading', { name: 'Only admins manage accounts' }).waitFor();
    await editor.page.goto(`${server.origin}/settings/hooks`);
    await editor.page.getByRole('heading', { name: 'Only admins manage hooks' }).waitFor();
    expect(await editor.page.locator('main').getByRole('textbox').count()).toBe(0);
    expect(editor.problems).toEqual([]);
  });
});
