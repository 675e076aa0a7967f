import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtEditorDir } from '../server/config/package-root.js';
import { sessionCookie } from '../server/test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { browserPerFile, openTab } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

/**
 * Settings › Audit in the editor: an admin finds it in the settings navigation, reads who did what
 * newest first, pages through the events and filters them; a viewer has no link and is refused.
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

describe('the Audit screen', () => {
  it('shows an admin the events newest first, in pages, filtered; a viewer is refused', async () => {
    // ada by first run, vera a viewer, a failed sign-in at vera, and enough tokens for two pages.
    const first = await post('/auth/first-run', { name: 'ada', password: PASSWORD });
    expect(first.status).toBe(201);
    const ada = { cookie: sessionCookie(first) as string };
    expect((await post('/accounts', { name: 'vera', role: 'viewer', password: PASSWORD }, ada)).status).toBe(201);
    expect((await post('/auth/sign-in', { name: 'vera', password: 'not her password at all' })).status).toBe(401);
    for (let n = 1; n <= 50; n++) {
      expect((await post('/tokens', { name: `build-${n}`, role: 'viewer' }, ada)).status).toBe(201);
    }
    // first_run, account.created, sign_in.failed and 50 token.created: 53 events.

    const admin = await tab();
    await admin.page.goto(`${server.origin}/news`);
    await signIn(admin.page, 'ada');
    const settings = admin.page.getByRole('navigation', { name: 'Settings' });
    await settings.getByRole('link', { name: 'Audit' }).click();
    await admin.page.getByRole('heading', { name: 'Audit log' }).waitFor();
    expect(admin.page.url()).toBe(`${server.origin}/settings/audit`);
    const rows = admin.page.getByTestId('audit-event');
    // Newest first: ada's own sign-in in the browser, then the last token made.
    await rows.first().filter({ hasText: 'Signed in' }).waitFor();
    await expect.poll(() => rows.count()).toBe(50);
    expect(await rows.nth(1).textContent()).toContain('build-50');
    await admin.page.getByText('1–50 of 54').waitFor();

    await button(admin.page, 'Next page').click();
    await admin.page.getByText('51–54 of 54').waitFor();
    await expect.poll(() => rows.count()).toBe(4);
    const oldest = rows.last();
    expect(await oldest.textContent()).toContain('First account made');
    expect(await oldest.textContent()).toContain('127.0.0.1');

    // Filtered: the failed sign-in at vera, with no one signed in and the address it came from.
    await chooseOption(field(admin.page, 'Action'), 'Sign-in failed');
    await button(admin.page, 'Filter').click();
    await admin.page.getByText('1–1 of 1').waitFor();
    const failed = rows.first();
    expect(await failed.textContent()).toContain('vera');
    expect(await failed.textContent()).toContain('no one signed in');
    await field(admin.page, 'Who').fill('nobody-did-this');
    await button(admin.page, 'Filter').click();
    await admin.page.getByText('No event matches').waitFor();
    await button(admin.page, 'Clear').click();
    await admin.page.getByText('1–50 of 54').waitFor();
    expect(admin.problems).toEqual([]);

    // A viewer sees no Audit link, and the address itself refuses them.
    const viewer = await tab();
    await viewer.page.goto(`${server.origin}/news`);
    await signIn(viewer.page, 'vera');
    const viewerSettings = viewer.page.getByRole('navigation', { name: 'Settings' });
    await viewerSettings.getByRole('link', { name: 'API' }).waitFor();
    expect(await viewerSettings.getByRole('link', { name: 'Audit' }).count()).toBe(0);
    await viewer.page.goto(`${server.origin}/settings/audit`);
    await viewer.page.getByText('Only admins read the audit log').waitFor();
    expect(viewer.problems).toEqual([]);
  });
});
