import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builtEditorDir } from '../server/config/package-root.js';
import { newsBody } from '../server/test-support/seed.js';
import { type Credentials, makeTeam } from '../server/test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { browserPerFile, openTab } from './support/editor-harness.js';

/**
 * Two people on one row, each in a Chromium page of their own account: both edit, the first save
 * goes through, the second meets it in the conflict dialog (theirs beside mine, field by field),
 * and each choice leads to the row it names; the person's own version can be downloaded first,
 * and setting the dialog aside keeps their edits in the form.
 */

const { browser, servers, pages } = browserPerFile();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

let server: TestServer;
let team: Credentials;

/** A tab signed in as the account whose session `headers` carry, on the row's page. */
async function openRowAs(headers: Record<string, string>, id: string): Promise<Page> {
  const tab = await openTab(browser());
  pages.push(tab.page);
  const at = headers.cookie.indexOf('=');
  const [name, value] = [headers.cookie.slice(0, at), headers.cookie.slice(at + 1)];
  await tab.context.addCookies([{ name, value, url: server.origin }]);
  await tab.page.goto(`${server.origin}/news/rows/${encodeURIComponent(id)}`);
  await field(tab.page, 'Title').waitFor();
  return tab.page;
}

async function saveAndWait(page: Page): Promise<void> {
  await button(page, 'Save').click();
  await page.getByText('Saved', { exact: true }).first().waitFor();
}

async function stored(id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.api}/cms/news/${encodeURIComponent(id)}`, { headers: team.admin_token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { rows: Record<string, unknown>[] }).rows[0];
}

/** A row both open; Ada saves a new title first, Edna then changes the title and the slug. */
async function bothEdit(title: string): Promise<{ id: string; ada: Page; edna: Page }> {
  if (!server) {
    server = await startTestServer({ editorDir: builtEditorDir() });
    servers.push(server);
    team = await makeTeam(server);
  }
  const made = await fetch(`${server.api}/cms/news`, {
    method: 'POST',
    headers: { ...team.admin_token, 'content-type': 'application/json' },
    body: JSON.stringify(newsBody({ title, slug: title.toLowerCase() })),
  });
  expect(made.status).toBe(201);
  const { id } = (await made.json()) as { id: string };
  const ada = await openRowAs(team.admin, id);
  const edna = await openRowAs(team.editor, id);
  await field(ada, 'Title').fill(`${title}, by Ada`);
  await saveAndWait(ada);
  await field(edna, 'Title').fill(`${title}, by Edna`);
  await field(edna, 'Slug').fill(`${title.toLowerCase()}-edna`);
  await button(edna, 'Save').click();
  return { id, ada, edna };
}

describe('two people saving one row', () => {
  it('keeping mine writes my fields over theirs, and the next save needs no dialog', async () => {
    const { id, edna } = await bothEdit('Harbour');
    const dialog = edna.getByRole('dialog', { name: 'Someone else saved this row' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('ada saved this row');
    const title = dialog.locator('tr[data-field="title"]');
    expect(await title.textContent()).toContain('Harbour, by Ada');
    expect(await title.textContent()).toContain('Harbour, by Edna');
    // Only Edna changed the slug: hers is kept unless she chooses otherwise.
    expect(await dialog.locator('tr[data-field="slug"]').getByLabel('Keep mine').isChecked()).toBe(true);
    expect(await title.getByLabel('Keep mine').isChecked()).toBe(true);
    await button(edna, 'Save with these choices').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await stored(id)).title).toBe('Harbour, by Edna');
    expect(await stored(id)).toMatchObject({ slug: 'harbour-edna', updated_by: 'edna' });

    await field(edna, 'Title').fill('Harbour, again by Edna');
    await button(edna, 'Save').click();
    await expect.poll(async () => (await stored(id)).title).toBe('Harbour, again by Edna');
    expect(await edna.getByRole('dialog').count()).toBe(0);
  });

  it('keeping theirs per field keeps their title with my slug; my version can be downloaded first', async () => {
    const { id, edna } = await bothEdit('Market');
    const dialog = edna.getByRole('dialog', { name: 'Someone else saved this row' });
    await dialog.waitFor();
    const download = dialog.getByRole('link', { name: 'Download my version' });
    const href = (await download.getAttribute('href')) as string;
    const mine = JSON.parse(decodeURIComponent(href.slice(href.indexOf(',') + 1)));
    expect(mine).toMatchObject({ title: 'Market, by Edna', slug: 'market-edna' });
    await dialog.locator('tr[data-field="title"]').getByLabel('Keep theirs').check();
    await button(edna, 'Save with these choices').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await stored(id)).slug).toBe('market-edna');
    expect((await stored(id)).title).toBe('Market, by Ada');
    expect(await field(edna, 'Title').inputValue()).toBe('Market, by Ada');
  });

  it('setting the dialog aside keeps my edits in the form and writes nothing', async () => {
    const { id, edna } = await bothEdit('Bridge');
    const dialog = edna.getByRole('dialog', { name: 'Someone else saved this row' });
    await dialog.waitFor();
    await button(edna, 'Cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await field(edna, 'Title').inputValue()).toBe('Bridge, by Edna');
    expect(await stored(id)).toMatchObject({ title: 'Bridge, by Ada', slug: 'bridge' });
    // Saving again meets their version again, rather than overwriting it.
    await button(edna, 'Save').click();
    await dialog.waitFor();
  });
});
