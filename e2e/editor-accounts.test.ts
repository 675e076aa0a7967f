import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builtEditorDir } from '../server/config/package-root.js';
import { newsBody } from '../server/test-support/seed.js';
import { sessionCookie } from '../server/test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { browserPerFile, openTab } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

/**
 * Accounts in the editor: first run makes the first admin, people sign in, an author
 * sees no Delete on another's row (and a forged delete is refused), a viewer cannot edit, sign-out,
 * an ended session brings the sign-in page back, and the admin screen adds accounts and tokens.
 */

const PASSWORD = 'correct horse battery staple';
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

const { browser, servers, pages } = browserPerFile();

async function start(options: { sessionIdleMs?: number } = {}): Promise<TestServer> {
  const server = await startTestServer({ editorDir: builtEditorDir(), ...options });
  servers.push(server);
  return server;
}

async function tab(): Promise<{ page: Page; problems: string[] }> {
  const opened = await openTab(browser());
  pages.push(opened.page);
  return opened;
}

/** Signs in on the sign-in page. */
async function signIn(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await field(page, 'Name').fill(name);
  await field(page, 'Password').fill(PASSWORD);
  await button(page, 'Sign in').click();
  await page.getByTestId('signed-in-as').filter({ hasText: name }).waitFor();
}

/** An admin token for the test's own setup requests, made with ada's session. */
async function adminToken(server: TestServer): Promise<Record<string, string>> {
  const signedIn = await fetch(`${server.api}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ada', password: PASSWORD }),
  });
  const cookie = sessionCookie(signedIn) as string;
  const made = await fetch(`${server.api}/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: server.origin },
    body: JSON.stringify({ name: 'e2e-setup', role: 'admin' }),
  });
  const { token } = (await made.json()) as { token: string };
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}

describe('accounts in the editor', () => {
  it('first run, sign-in by role, an author’s and a viewer’s limits, sign-out, and the admin screen', async () => {
    const server = await start();
    const admin = await tab();

    // No accounts yet: the editor opens without sign-in; Settings › Accounts offers first run.
    await admin.page.goto(`${server.origin}/news`);
    await admin.page.getByRole('heading', { name: 'News', exact: true }).waitFor();
    await admin.page.getByRole('link', { name: 'Accounts' }).click();
    await field(admin.page, 'Name').fill('ada');
    await field(admin.page, 'Password').fill(PASSWORD);
    await field(admin.page, 'Password again').fill(PASSWORD);
    await button(admin.page, 'Create account and sign in').click();
    await admin.page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();

    // The admin screen: add an author and a viewer, and a token shown once.
    await admin.page.getByRole('heading', { name: 'Accounts' }).waitFor();
    for (const [name, role] of [
      ['aldo', 'author'],
      ['vera', 'viewer'],
    ]) {
      await field(admin.page, 'Name').fill(name);
      await chooseOption(field(admin.page, 'Role'), role);
      await field(admin.page, 'Password').fill(PASSWORD);
      await button(admin.page, 'Add account').click();
      await admin.page.getByRole('cell', { name, exact: true }).waitFor();
    }
    await field(admin.page, 'Token name').fill('site-build');
    await button(admin.page, 'Add token').click();
    const shown = await admin.page.locator('.token-once').textContent();
    expect(shown).toMatch(/^quire_[A-Za-z0-9_-]{43}$/);
    const list = await fetch(`${server.api}/cms/news`, { headers: { authorization: `Bearer ${shown}` } });
    expect(list.status).toBe(200);

    const setup = await adminToken(server);
    const adasRow = (await (
      await fetch(`${server.api}/cms/news`, {
        method: 'POST',
        headers: setup,
        body: JSON.stringify(newsBody({ title: 'Ada’s row' })),
      })
    ).json()) as { id: string };

    // An author: may create, but sees no Delete on Ada's row, and a forged delete is refused.
    const author = await tab();
    await author.page.goto(`${server.origin}/news/rows/${adasRow.id}`);
    await signIn(author.page, 'aldo');
    await author.page.getByRole('heading', { name: 'Ada’s row' }).waitFor();
    await author.page.getByText('Read only').waitFor();
    expect(await button(author.page, 'Delete').count()).toBe(0);
    expect(await button(author.page, 'Save').count()).toBe(0);
    const forged = await author.page.evaluate(
      async (id) => (await fetch(`/api/cms/news/${id}`, { method: 'DELETE' })).status,
      adasRow.id,
    );
    expect(forged).toBe(403);
    expect((await fetch(`${server.api}/cms/news/${adasRow.id}`, { headers: setup })).status).toBe(200);
    // Their own row: Save and Delete are there.
    await author.page.goto(`${server.origin}/news/new`);
    await field(author.page, 'Title').fill('Aldo’s row');
    await chooseOption(field(author.page, 'Status'), 'Draft');
    await field(author.page, 'Published at').fill('2025-03-04T10:20:30');
    await button(author.page, 'Save').click();
    await author.page.waitForURL(/\/news\/rows\/[^/?]+$/);
    await button(author.page, 'Delete').waitFor();

    // A viewer: no New, no Save.
    const viewer = await tab();
    await viewer.page.goto(`${server.origin}/news`);
    await signIn(viewer.page, 'vera');
    await viewer.page.getByRole('row', { name: /Ada’s row/ }).waitFor();
    expect(await button(viewer.page, 'New').count()).toBe(0);
    expect(await viewer.page.getByRole('link', { name: 'Content types' }).count()).toBe(0);
    await viewer.page.goto(`${server.origin}/settings/content-types`);
    await viewer.page.getByRole('heading', { name: 'Only admins change content types' }).waitFor();
    await viewer.page.goto(`${server.origin}/news/rows/${adasRow.id}`);
    await viewer.page.getByText('Read only').waitFor();
    expect(await button(viewer.page, 'Save').count()).toBe(0);

    // Sign-out: the sign-in page, and the old session is gone on the server too.
    await button(author.page, 'Sign out').click();
    await author.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const after = await author.page.evaluate(async () => (await fetch('/api/cms/news')).status);
    expect(after).toBe(401);

    for (const { problems } of [admin, author, viewer]) expect(problems).toEqual([]);
  });

  it('brings the sign-in page back when the session ends', async () => {
    const server = await start({ sessionIdleMs: 1_500 });
    const first = await fetch(`${server.api}/auth/first-run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ada', password: PASSWORD }),
    });
    expect(first.status).toBe(201);
    const { page, problems } = await tab();
    await page.goto(`${server.origin}/news`);
    await signIn(page, 'ada');
    await page.getByRole('heading', { name: 'News', exact: true }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await page.getByRole('link', { name: 'Categories' }).click();
    await page.getByText('Your session has ended; sign in again.').waitFor();
    await signIn(page, 'ada');
    expect(problems).toEqual([]);
  });
});
