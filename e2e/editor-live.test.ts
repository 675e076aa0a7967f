import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtEditorDir } from '../server/config/package-root.js';
import { newsBody } from '../server/test-support/seed.js';
import { type Credentials, makeTeam } from '../server/test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { browserPerFile, openTab } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

/**
 * The editor's live view in two Chromium pages of two accounts at once: a row Ada creates shows
 * in Edna's list without a reload, and when Ada saves a row Edna has open, Edna is told who
 * changed which fields while her own edits stay in the form.
 */

const { browser, servers, pages } = browserPerFile();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

let server: TestServer;
let team: Credentials;

beforeAll(async () => {
  server = await startTestServer({ editorDir: builtEditorDir() });
  servers.push(server);
  team = await makeTeam(server);
});

/** A tab signed in as the account whose session `headers` carry, at `path`. */
async function openAs(headers: Record<string, string>, path: string): Promise<Page> {
  const tab = await openTab(browser());
  pages.push(tab.page);
  const [name, value] = headers.cookie.split('=');
  await tab.context.addCookies([{ name, value, url: server.origin }]);
  await tab.page.goto(`${server.origin}${path}`);
  return tab.page;
}

describe('the live view', () => {
  it('shows a row another person creates in the list, without a reload', async () => {
    const made = await fetch(`${server.api}/cms/news`, {
      method: 'POST',
      headers: { ...team.admin_token, 'content-type': 'application/json' },
      body: JSON.stringify(newsBody({ title: 'Harbour opens' })),
    });
    expect(made.status).toBe(201);
    const edna = await openAs(team.editor, '/news');
    await edna.getByRole('row', { name: /Harbour opens/ }).waitFor();
    const ada = await openAs(team.admin, '/news/new');
    await field(ada, 'Title').fill('Lighthouse reopens');
    await chooseOption(field(ada, 'Status'), 'Draft');
    await field(ada, 'Published at').fill('2025-03-04T10:20:30');
    await button(ada, 'Save').click();
    await ada.waitForURL(/\/news\/rows\/[^/?]+$/);
    await edna.getByRole('row', { name: /Lighthouse reopens/ }).waitFor();
  });

  it('tells the person with a row open who changed which fields, keeping their edits', async () => {
    const made = await fetch(`${server.api}/cms/news`, {
      method: 'POST',
      headers: { ...team.admin_token, 'content-type': 'application/json' },
      body: JSON.stringify(newsBody({ title: 'Ferry times', slug: 'ferry-times' })),
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const path = `/news/rows/${encodeURIComponent(id)}`;
    const edna = await openAs(team.editor, path);
    await field(edna, 'Title').waitFor();
    await field(edna, 'Slug').fill('ferry-times-edna');
    const ada = await openAs(team.admin, path);
    await field(ada, 'Title').fill('Ferry times change');
    await button(ada, 'Save').click();
    await ada.getByText('Saved', { exact: true }).first().waitFor();

    const notice = edna.locator('[data-live-notice]');
    await notice.getByText('ada changed Title a moment ago.', { exact: false }).waitFor();
    expect(await field(edna, 'Slug').inputValue()).toBe('ferry-times-edna');
    expect(await field(edna, 'Title').inputValue()).toBe('Ferry times');
    // Ada does not hear of her own save.
    expect(await ada.locator('[data-live-notice]').count()).toBe(0);
  });
});
