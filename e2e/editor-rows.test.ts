import type { Dialog, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builtEditorDir } from '../server/config/package-root.js';
import { startTestServer } from '../server/test-support/test-server.js';
import { descriptionOf, editorSuite } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

const suite = editorSuite();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const rowIdFromUrl = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 5_000 });

describe('the row editor in Chromium', () => {
  it('creates a news row through the form: the slug fills in, and the row shows in the list', async () => {
    const { page } = suite;
    await page.goto(suite.url('/news'));
    await button(page, 'New').click();
    await page.waitForURL('**/news/new');

    await field(page, 'Title').pressSequentially('Harbour festival opens');
    expect(await field(page, 'Slug').inputValue()).toBe('harbour-festival-opens');
    await chooseOption(field(page, 'Status'), 'Published');
    await field(page, 'Published at').fill('2025-03-04T10:20:30');
    await button(page, 'Save').click();

    await page.waitForURL(/\/news\/rows\/[^/?]+$/);
    await page.getByText('Created “Harbour festival opens”').waitFor();
    const { row } = await suite.api.get('news', rowIdFromUrl(page));
    expect(row).toMatchObject({
      title: 'Harbour festival opens',
      slug: 'harbour-festival-opens',
      status: 'published',
      published_at: '2025-03-04 10:20:30',
      meta: null,
    });

    // New from a saved row starts a blank form.
    await button(page, 'New').click();
    await page.waitForURL('**/news/new');
    expect(await field(page, 'Title').inputValue()).toBe('');

    await page.getByRole('link', { name: 'Back to list' }).click();
    await page.waitForURL(/\/news$/);
    const listed = page.getByRole('row', { name: /Harbour festival opens/ });
    await listed.waitFor();
    expect(await listed.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Harbour festival opens', 'harbour-festival-opens', 'Published']),
    );
  });

  it('edits a row and saves with Ctrl+S; the saved slug stays until Regenerate', async () => {
    const { page } = suite;
    const seeded = await suite.api.create('news', {
      title: 'Lighthouse restored',
      status: 'draft',
      published_at: '2025-02-01 09:00:00',
    });
    await page.goto(suite.url(`/news/rows/${seeded.id}`));
    const title = field(page, 'Title');
    await title.fill('Lighthouse restored at last');
    expect(await field(page, 'Slug').inputValue()).toBe('lighthouse-restored');
    await page.getByText('Unsaved changes').waitFor();

    await page.keyboard.press('Control+S');
    await page.getByText('All changes saved').waitFor();
    let { row } = await suite.api.get('news', seeded.id);
    expect(row).toMatchObject({ title: 'Lighthouse restored at last', slug: 'lighthouse-restored', status: 'draft' });

    await button(page, 'Regenerate Slug from Title').click();
    expect(await field(page, 'Slug').inputValue()).toBe('lighthouse-restored-at-last');
    await chooseOption(field(page, 'Status'), 'Published');
    await button(page, 'Save').click();
    await page.getByText('All changes saved').waitFor();
    ({ row } = await suite.api.get('news', seeded.id));
    expect(row).toMatchObject({ slug: 'lighthouse-restored-at-last', status: 'published' });
  });

  it('shows server validation errors at their fields, saves nothing, then saves with SEO meta once fixed', async () => {
    const { page } = suite;
    const before = (await suite.api.list('news', '?limit=0')).total;
    await page.goto(suite.url('/news/new'));
    await field(page, 'Published at').fill('');
    await button(page, 'Save').click();

    await poll(() => field(page, 'Title').getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(page, 'Title')).toContain('Title is required');
    expect(await descriptionOf(page, 'Published at')).toContain('Published at is required');
    expect(await page.getByRole('alert').textContent()).toMatch(/Fix the \d highlighted fields/);
    expect(await page.locator(':focus').getAttribute('id')).toBe('field-title');
    expect((await suite.api.list('news', '?limit=0')).total).toBe(before);

    await field(page, 'Title').fill('Night buses every fifteen minutes');
    expect(await field(page, 'Title').getAttribute('aria-invalid')).toBeNull();
    await field(page, 'Published at').fill('2025-04-01T06:00:00');
    await button(page, 'Edit SEO').click();
    await field(page, 'Meta title').fill('Night buses | Gazette');
    await field(page, 'Meta description').fill('Buses run all night from May.');
    await field(page, 'Meta keywords').fill('transport, night');
    await button(page, 'Save').click();

    await page.waitForURL(/\/news\/rows\/[^/?]+$/);
    const { row } = await suite.api.get('news', rowIdFromUrl(page));
    expect(row).toMatchObject({
      slug: 'night-buses-every-fifteen-minutes',
      published_at: '2025-04-01 06:00:00',
      meta: {
        title: 'Night buses | Gazette',
        description: 'Buses run all night from May.',
        keywords: 'transport, night',
      },
    });
  });

  it('shows a slug conflict at the Slug field', async () => {
    const { page } = suite;
    await suite.api.create('news', { title: 'Taken title', status: 'draft', published_at: '2025-01-01 00:00:00' });
    await page.goto(suite.url('/news/new'));
    await field(page, 'Title').fill('Another row');
    await field(page, 'Slug').fill('taken-title');
    await button(page, 'Save').click();
    await poll(() => descriptionOf(page, 'Slug')).toContain('Slug is already taken');
    expect(new URL(page.url()).pathname).toBe('/news/new');
  });

  it('deletes a row after a confirmation that names it', async () => {
    const { page } = suite;
    const seeded = await suite.api.create('news', {
      title: 'Market hall closes',
      status: 'archived',
      published_at: '2025-01-02 12:00:00',
    });
    await page.goto(suite.url(`/news/rows/${seeded.id}`));
    await button(page, 'Delete').click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.getByRole('heading').textContent()).toBe('Delete “Market hall closes”?');
    await button(page, 'Cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect((await suite.api.get('news', seeded.id)).status).toBe(200);

    await button(page, 'Delete').click();
    // While the dialog is open the page behind it is inert: "Delete" means the dialog's button.
    await button(page, 'Delete').click();
    await page.waitForURL(/\/news$/);
    await page.getByText('Deleted “Market hall closes”').waitFor();
    expect((await suite.api.get('news', seeded.id)).status).toBe(404);
    expect(await page.getByRole('row', { name: /Market hall closes/ }).count()).toBe(0);
  });

  it('asks before leaving a form with unsaved changes, in the app and when the window closes', async () => {
    const { page } = suite;
    const seeded = await suite.api.create('news', {
      title: 'Chess club tournament',
      status: 'published',
      published_at: '2025-01-03 15:00:00',
    });
    await page.goto(suite.url('/news'));
    await page.getByRole('link', { name: 'Chess club tournament' }).click();
    await field(page, 'Title').fill('Chess club tournament (edited)');

    await page.getByRole('link', { name: 'Categories' }).click();
    await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).waitFor();
    await button(page, 'Keep editing').click();
    expect(new URL(page.url()).pathname).toBe(`/news/rows/${seeded.id}`);
    expect(await field(page, 'Title').inputValue()).toBe('Chess club tournament (edited)');

    await page.goBack();
    await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/news/rows/${seeded.id}`);
    await button(page, 'Discard changes').click();
    await page.waitForURL(/\/news$/);
    expect((await suite.api.get('news', seeded.id)).row?.title).toBe('Chess club tournament');

    await page.getByRole('link', { name: 'Chess club tournament' }).click();
    await field(page, 'Title').fill('Closing with edits');
    const prompt = new Promise<Dialog>((resolve) => page.once('dialog', resolve));
    const closed = new Promise<void>((resolve) => page.once('close', () => resolve()));
    await page.close({ runBeforeUnload: true });
    const dialog = await prompt;
    expect(dialog.type()).toBe('beforeunload');
    // Leaving, so the page closes before the next test. Dismissing it (staying on a page asked to
    // close) can crash Chromium when the context closes after it.
    await dialog.accept();
    await closed;
  });

  it('keeps the row in the URL: reload reopens it, and back returns to the list where it was', async () => {
    const { page } = suite;
    const seeded = await suite.api.create('news', {
      title: 'Stadium renovation finished',
      status: 'published',
      published_at: '2025-01-04 10:00:00',
    });
    await page.goto(suite.url('/news?q=stadium'));
    await page.getByRole('link', { name: 'Stadium renovation finished' }).click();
    await page.waitForURL(`**/news/rows/${seeded.id}?q=stadium`);
    await page.reload();
    expect(await field(page, 'Title').inputValue()).toBe('Stadium renovation finished');
    await page.goBack();
    await page.waitForURL(/\/news\?q=stadium$/);
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('stadium');
    await page.getByRole('link', { name: 'Stadium renovation finished' }).waitFor();
    await page.goForward();
    expect(await field(page, 'Title').inputValue()).toBe('Stadium renovation finished');
  });

  it('asks for the API token once when the server requires one, and sends it on every request', async () => {
    const { page } = suite;
    const token = 'open-sesame-0123456789';
    const guarded = await startTestServer({ editorDir: builtEditorDir(), token });
    try {
      const sent: (string | undefined)[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/')) sent.push(request.headers().authorization);
      });
      await page.goto(`${guarded.origin}/news`);
      await page.getByRole('dialog', { name: 'This Quire server needs an API token' }).waitFor();
      await field(page, 'API token').fill('wrong-token-0123456789');
      await button(page, 'Continue').click();
      await page.getByRole('dialog', { name: 'That API token was not accepted' }).waitFor();
      await field(page, 'API token').fill(token);
      await button(page, 'Continue').click();
      await page.getByRole('heading', { name: 'News', level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'No news yet' }).waitFor();

      const afterToken = sent.length;
      await page.reload();
      await page.getByRole('heading', { name: 'No news yet' }).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(await page.evaluate('sessionStorage.getItem("quire.apiToken")')).toBe(token);
      expect(sent.length).toBeGreaterThan(afterToken);
      expect(sent.slice(afterToken).every((auth) => auth === `Bearer ${token}`)).toBe(true);
    } finally {
      await guarded.dispose();
    }
  });
});
