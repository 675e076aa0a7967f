import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builtEditorDir } from '../server/config/package-root.js';
import { type Credentials, makeTeam } from '../server/test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { browserPerFile, openTab } from './support/editor-harness.js';

/**
 * One content type open in three Chromium pages: the first save goes through; the page with edits
 * is told at once (the change feed's events) and a save of it meets the first (If-Match with the
 * version the page opened) and writes nothing; Reload loads the first person's version, lists the
 * second person's unsaved changes, and Re-apply puts them over it to be saved. The untouched page
 * simply shows the new version.
 */

const { browser, servers, pages } = browserPerFile();

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const fieldGroup = (page: Page, name: RegExp) => page.getByRole('group', { name });
const fieldLabel = (group: ReturnType<Page['getByRole']>) => group.getByLabel('Field label', { exact: true });

let server: TestServer;
let team: Credentials;

/** A tab signed in as the account whose session `headers` carry, on the type's editor. */
async function openTypeAs(headers: Record<string, string>, slug: string): Promise<Page> {
  const tab = await openTab(browser());
  pages.push(tab.page);
  const at = headers.cookie.indexOf('=');
  const [name, value] = [headers.cookie.slice(0, at), headers.cookie.slice(at + 1)];
  await tab.context.addCookies([{ name, value, url: server.origin }]);
  await tab.page.goto(`${server.origin}/settings/content-types/edit/${encodeURIComponent(slug)}`);
  await fieldGroup(tab.page, /^Field 1: Title/).waitFor();
  return tab.page;
}

async function storedColumns(slug: string): Promise<{ name: string; label: string }[]> {
  const response = await fetch(`${server.api}/cms-content`, { headers: team.admin_token });
  expect(response.status).toBe(200);
  const { content_types } = (await response.json()) as {
    content_types: { slug: string; columns: { name: string; label: string }[] }[];
  };
  return (content_types.find((type) => type.slug === slug)?.columns ?? []).map(({ name, label }) => ({
    name,
    label,
  }));
}

describe('two people changing one content type', () => {
  it('the second save meets the first; Reload keeps the second person’s changes to re-apply', async () => {
    server = await startTestServer({ editorDir: builtEditorDir() });
    servers.push(server);
    team = await makeTeam(server);
    const made = await fetch(`${server.api}/cms-content`, {
      method: 'POST',
      headers: { ...team.admin_token, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Venues',
        columns: [{ name: 'title', label: 'Title', type: 'text', required: true }],
      }),
    });
    expect(made.status).toBe(201);
    const first = await openTypeAs(team.admin, 'venues');
    const second = await openTypeAs(team.admin, 'venues');
    const untouched = await openTypeAs(team.admin, 'venues');

    await button(second, 'Add field').click();
    await fieldLabel(fieldGroup(second, /^Field 2/)).fill('Capacity');
    await fieldLabel(fieldGroup(first, /^Field 1: Title/)).fill('Name');
    await button(first, 'Save content type').click();
    await expect.poll(async () => (await storedColumns('venues'))[0]?.label).toBe('Name');

    // Told without saving; the untouched page shows the new version by itself.
    const notice = second.getByRole('alert').filter({ hasText: 'Someone else changed this content type' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('ada changed it');
    await fieldGroup(untouched, /^Field 1: Name/).waitFor();
    expect(await untouched.getByRole('alert').count()).toBe(0);

    // A save anyway meets the first one and writes nothing.
    await button(second, 'Save content type').click();
    await notice.waitFor();
    expect(await storedColumns('venues')).toEqual([{ name: 'title', label: 'Name' }]);
    expect(await fieldLabel(fieldGroup(second, /^Field 2/)).inputValue()).toBe('Capacity');

    await notice.getByRole('button', { name: 'Reload' }).click();
    await fieldGroup(second, /^Field 1: Name/).waitFor();
    expect(await fieldGroup(second, /^Field 2/).count()).toBe(0);
    const kept = second.getByRole('list', { name: 'Your unsaved changes' });
    expect(await kept.textContent()).toContain('Field “Capacity” (added)');

    await button(second, 'Re-apply my changes').click();
    expect(await fieldLabel(fieldGroup(second, /^Field 2/)).inputValue()).toBe('Capacity');
    await button(second, 'Save content type').click();
    await expect
      .poll(async () => storedColumns('venues'))
      .toEqual([
        { name: 'title', label: 'Name' },
        { name: 'capacity', label: 'Capacity' },
      ]);
  });
});
