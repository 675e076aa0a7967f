import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ContentTypeListResponse, ContentTypeSummary } from '../common/api-contract.js';
import { editorSuite } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

const suite = editorSuite();

const field = (scope: Page | Locator, label: string) => scope.getByLabel(label, { exact: true });
const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const fieldGroup = (page: Page, position: number) =>
  page.getByRole('group', { name: new RegExp(`^Field ${position}:`) });
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 5_000 });
const rowIdFromUrl = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

async function contentType(slug: string): Promise<ContentTypeSummary | undefined> {
  const response = await fetch(`${suite.server.api}/cms-content`);
  return ((await response.json()) as ContentTypeListResponse).content_types.find((type) => type.slug === slug);
}

describe('conditional fields in Chromium', () => {
  it('sets a condition in the type editor; the row form shows the field and requires it only while it holds', async () => {
    const { page } = suite;
    const created = await fetch(`${suite.server.api}/cms-content`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Posts',
        columns: [
          { name: 'title', label: 'Title', type: 'text', required: true },
          {
            name: 'kind',
            label: 'Kind',
            type: 'select',
            required: true,
            options: [
              { id: 'text', text: 'Text' },
              { id: 'video', text: 'Video' },
            ],
          },
        ],
      }),
    });
    expect(created.status).toBe(201);

    // The type editor: a required Video URL, shown only when Kind is Video.
    await page.goto(suite.url('/settings/content-types/edit/posts'));
    await button(page, 'Add field').click();
    const videoUrl = fieldGroup(page, 3);
    await field(videoUrl, 'Field label').fill('Video URL');
    await field(videoUrl, 'Required').check();
    expect(await field(videoUrl, 'Show this field').textContent()).toBe('Always');
    await chooseOption(field(videoUrl, 'Show this field'), 'Only when Kind');
    expect(await field(videoUrl, 'Condition').textContent()).toBe('is one of');
    await field(videoUrl, 'Video').check();
    await button(page, 'Save content type').click();
    await poll(async () => (await contentType('posts'))?.columns[2]?.when).toEqual({ field: 'kind', is: ['video'] });
    expect((await contentType('posts'))?.columns[2]).toMatchObject({ name: 'video_url', required: true });

    // The row form: the field appears and disappears as Kind changes.
    await page.goto(suite.url('/posts/new'));
    await field(page, 'Title').fill('A clip');
    await field(page, 'Kind').waitFor();
    expect(await field(page, 'Video URL').count()).toBe(0);
    await chooseOption(field(page, 'Kind'), 'Video');
    await field(page, 'Video URL').waitFor();
    expect(await field(page, 'Video URL').getAttribute('required')).not.toBeNull();
    await chooseOption(field(page, 'Kind'), 'Text');
    await poll(() => field(page, 'Video URL').count()).toBe(0);

    // Shown and empty, it is required: the server refuses, and the form says so at the field.
    await chooseOption(field(page, 'Kind'), 'Video');
    // The browser's own check would stop the save first; the server's is the one that counts.
    await field(page, 'Video URL').evaluate((input: any) => input.removeAttribute('required'));
    await button(page, 'Save').click();
    await page.getByText('Video URL is required').waitFor();
    expect((await suite.api.list('posts')).rows).toHaveLength(0);

    // Filled in, the row saves; switched back to Text, the field hides and its value is kept.
    await field(page, 'Video URL').fill('https://video.example/clip');
    await button(page, 'Save').click();
    await page.waitForURL(/\/posts\/rows\/[^/?]+$/);
    const id = rowIdFromUrl(page);
    expect((await suite.api.get('posts', id)).row).toMatchObject({
      kind: 'video',
      video_url: 'https://video.example/clip',
    });
    await chooseOption(field(page, 'Kind'), 'Text');
    await poll(() => field(page, 'Video URL').count()).toBe(0);
    await button(page, 'Save').click();
    await poll(async () => (await suite.api.get('posts', id)).row?.kind).toBe('text');
    expect((await suite.api.get('posts', id)).row?.video_url).toBe('https://video.example/clip');
  });
});
