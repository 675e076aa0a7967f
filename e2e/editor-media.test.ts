import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { MediaAsset, MediaAssetDetail, MediaListResponse } from '../common/asset-contract.js';
import { builtEditorDir } from '../server/config/package-root.js';
import { makeTeam } from '../server/test-support/team-fixture.js';
import { startTestServer } from '../server/test-support/test-server.js';
import { uploadPng } from './support/article-seed.js';
import { expectAccessible } from './support/axe-check.js';
import { editorSuite, openTab } from './support/editor-harness.js';
import { landscapePng } from './support/png-image.js';

/**
 * The Media screen in Chromium: two images uploaded from the file picker show in the grid with
 * their progress done; search narrows the grid; alt text and the focal point (arrow keys) are saved
 * through the API; an unused file is deleted; one a row uses is refused with the row named, and
 * deleted anyway after that. A dropped file is uploaded and the unused filter leaves out a used
 * one; an image field picks its image from the library; an author changes their own upload and a
 * viewer sees the library read-only.
 */

const suite = editorSuite();

async function library(query = ''): Promise<MediaListResponse> {
  const response = await fetch(`${suite.server.api}/media${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as MediaListResponse;
}

describe('the Media screen', () => {
  it('uploads, searches, describes and deletes images', async () => {
    const { page } = suite;
    await page.goto(suite.url('/news'));
    await page.getByRole('link', { name: 'Media', exact: true }).click();
    await page.getByRole('heading', { name: 'Media', level: 1 }).waitFor();
    expect(page.url()).toBe(suite.url('/settings/media'));
    await page.getByText('No media yet').waitFor();

    // Two files from the picker: each is listed with its outcome, and both show in the grid.
    await page.getByLabel('Upload', { exact: true }).setInputFiles([
      { name: 'harbour.png', mimeType: 'image/png', buffer: landscapePng(480, 300, 20) },
      { name: 'lighthouse.png', mimeType: 'image/png', buffer: landscapePng(480, 300, 200) },
    ]);
    const uploads = page.getByTestId('media-upload');
    await expect.poll(() => uploads.filter({ hasText: 'Uploaded' }).count()).toBe(2);
    const tiles = page.getByTestId('media-tile');
    await expect.poll(() => tiles.count()).toBe(2);
    await page.getByText('2 files in the library').waitFor();
    expect((await library()).total).toBe(2);
    // The thumbnails are small variants that loaded.
    const thumbnails = () =>
      tiles
        .locator('img')
        .evaluateAll((images: any[]) =>
          images.map((image) => `${image.naturalWidth}x${image.naturalHeight} ${image.src}`),
        );
    await expect.poll(async () => (await thumbnails()).filter((text) => text.startsWith('240x240 ')).length).toBe(2);
    for (const text of await thumbnails()) expect(text).toContain('w=240&h=240&fit=cover');
    await expectAccessible(page, 'the Media screen');

    // Search narrows the grid on the server.
    await page.getByLabel('Search', { exact: true }).fill('harbour');
    await page.getByLabel('Search', { exact: true }).press('Enter');
    await expect.poll(() => tiles.count()).toBe(1);
    await expect.poll(() => tiles.first().textContent()).toContain('harbour.png');

    // Details: alt text and the focal point, saved with PATCH.
    await tiles.first().click();
    const dialog = page.getByRole('dialog', { name: 'harbour.png' });
    await dialog.waitFor();
    await dialog.getByText('This image has no alt text', { exact: false }).waitFor();
    await dialog.getByText('No row uses this file.').waitFor();
    // The dialog fades in: axe reads colours once it has.
    await page.waitForFunction(() =>
      (globalThis as any).document.getAnimations().every((animation: any) => animation.playState !== 'running'),
    );
    await expectAccessible(page, 'the details of a media file');
    await dialog.getByLabel('Alt text', { exact: true }).fill('The harbour at dawn');
    await dialog.getByLabel('Credit', { exact: true }).fill('Ann Lee');
    const focal = dialog.getByTestId('media-focal');
    await focal.focus();
    await focal.press('ArrowRight');
    await focal.press('ArrowUp');
    await dialog.getByText('Focal point: 55% from the left, 45% from the top').waitFor();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Description saved').waitFor();
    const [harbour] = (await library('?search=harbour')).assets;
    expect(harbour.alt).toBe('The harbour at dawn');
    expect(harbour.credit).toBe('Ann Lee');
    expect(harbour.focal).toEqual({ x: 0.55, y: 0.45 });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The grid shows the new alt text on the image.
    await expect.poll(() => tiles.first().locator('img').getAttribute('alt')).toBe('The harbour at dawn');

    // An alt text over the server's limit is refused at its field, and nothing changes.
    await tiles.first().click();
    await dialog.getByLabel('Alt text', { exact: true }).fill('x'.repeat(1001));
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => dialog.getByLabel('Alt text', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect((await library('?search=harbour')).assets[0].alt).toBe('The harbour at dawn');

    // Delete the unused one: asked first, then gone from the grid and the library.
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this file?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('harbour.png deleted').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect((await fetch(`${suite.server.api}/media/${harbour.id}`)).status).toBe(404);
    await expect.poll(() => tiles.count()).toBe(0);

    // The other one is used by an article: the 409 names the row, which links to it.
    const lighthouse = (await library('?search=lighthouse')).assets[0] as MediaAsset;
    const article = await suite.api.create('articles', {
      title: 'Inside the lighthouse',
      status: 'draft',
      published_at: '2026-01-05 09:00:00',
      image: lighthouse.path,
    });
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Search', { exact: true }).press('Enter');
    await expect.poll(() => tiles.count()).toBe(1);
    await tiles.first().click();
    const used = page.getByRole('dialog', { name: 'lighthouse.png' });
    await used.getByRole('link', { name: `articles/${article.id}` }).waitFor();
    await used.getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete this file?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await used.getByText(`Not deleted: this file is used by 1 row: articles/${article.id}.`).waitFor();
    const detail = (await (await fetch(`${suite.server.api}/media/${lighthouse.id}`)).json()) as MediaAssetDetail;
    expect(detail.used_in.map((use) => use.row)).toEqual([article.id]);
    // An admin may delete it anyway.
    await used.getByRole('button', { name: 'Delete anyway', exact: true }).click();
    await page.getByText('lighthouse.png deleted').waitFor();
    expect((await fetch(`${suite.server.api}/media/${lighthouse.id}`)).status).toBe(404);
  });

  it('uploads files dropped on the grid, and filters to unused files', async () => {
    const { page } = suite;
    const kept = await uploadPng(suite.server.api, landscapePng(300, 200, 90), 'quay.png');
    await suite.api.create('articles', {
      title: 'Quay',
      status: 'draft',
      published_at: '2026-01-05 09:00:00',
      image: kept.path,
    });
    const before = (await library()).total;
    await page.goto(suite.url('/settings/media'));
    const tiles = page.getByTestId('media-tile');
    await expect.poll(() => tiles.count()).toBe(before);
    // A drop of a file, as the browser gives it to the page.
    const bytes = [...landscapePng(300, 200, 150)];
    const transfer = await page.evaluateHandle((data: number[]) => {
      // The page's own DataTransfer and File (this runs in Chromium, not in Node).
      const page = globalThis as any;
      const transfer = new page.DataTransfer();
      transfer.items.add(new page.File([new Uint8Array(data)], 'dropped.png', { type: 'image/png' }));
      return transfer;
    }, bytes);
    const grid = page.getByRole('region', { name: 'Media files' });
    await grid.dispatchEvent('dragover', { dataTransfer: transfer });
    await grid.dispatchEvent('drop', { dataTransfer: transfer });
    await page.getByTestId('media-upload').filter({ hasText: 'Uploaded' }).waitFor();
    await expect.poll(() => tiles.count()).toBe(before + 1);
    await page.getByLabel('Unused only', { exact: true }).check();
    const unused = (await library('?unused=true')).assets.map((asset) => asset.file_name);
    expect(unused).toContain('dropped.png');
    expect(unused).not.toContain('quay.png');
    await expect.poll(() => tiles.count()).toBe(unused.length);
    await expect.poll(() => tiles.allTextContents()).not.toContain(expect.stringContaining('quay.png'));
  });

  it("chooses an image field's image from the library, warning while it has no alt text", async () => {
    const { page } = suite;
    await uploadPng(suite.server.api, landscapePng(320, 200, 300), 'pier.png');
    await page.goto(suite.url('/articles/new'));
    await page.getByRole('button', { name: 'Choose from library for Image' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose an image from the library' });
    await picker.getByLabel('Search', { exact: true }).fill('pier');
    await picker.getByLabel('Search', { exact: true }).press('Enter');
    const tiles = picker.getByTestId('media-tile');
    await expect.poll(() => tiles.count()).toBe(1);
    await expectAccessible(page, 'the media picker');
    await tiles.first().click();
    await picker.waitFor({ state: 'hidden' });
    await page.getByText('This image has no alt text: describe it for people who cannot see it.').waitFor();
    const pier = (await library('?search=pier')).assets[0];
    await expect.poll(() => page.locator('.image-name').first().getAttribute('title')).toBe(pier.path);
  });

  it('lets an author change the files they uploaded, and shows a viewer the library read-only', async () => {
    const server = await startTestServer({ editorDir: builtEditorDir() });
    const tabs: Page[] = [];
    try {
      const team = await makeTeam(server);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(landscapePng(300, 200, 40))], { type: 'image/png' }), 'dune.png');
      const uploaded = await fetch(`${server.api}/uploads`, { method: 'POST', headers: team.author, body: form });
      expect(uploaded.status).toBe(201);
      const tabAs = async (role: string) => {
        const opened = await openTab(suite.browser);
        tabs.push(opened.page);
        const [name, value] = team[role].cookie.split('=');
        await opened.context.addCookies([{ name, value, url: server.origin }]);
        await opened.page.goto(`${server.origin}/settings/media`);
        await opened.page.getByTestId('media-tile').first().click();
        return opened.page;
      };
      const author = await tabAs('author');
      const own = author.getByRole('dialog', { name: 'dune.png' });
      await own.getByRole('button', { name: 'Save', exact: true }).waitFor();
      expect(await own.getByLabel('Alt text', { exact: true }).isEditable()).toBe(true);
      expect(await author.getByLabel('Upload', { exact: true }).count()).toBe(1);
      // A new file of the same format keeps the asset and its path; its hash and name are the new file's.
      const asset = ((await uploaded.json()) as MediaAsset).id;
      const before = (await (
        await fetch(`${server.api}/media/${asset}`, { headers: team.author })
      ).json()) as MediaAsset;
      await own
        .getByLabel('Replace file', { exact: true })
        .setInputFiles({ name: 'dune-2.png', mimeType: 'image/png', buffer: landscapePng(300, 200, 120) });
      await author.getByText('File replaced').waitFor();
      const after = (await (
        await fetch(`${server.api}/media/${asset}`, { headers: team.author })
      ).json()) as MediaAsset;
      expect(after.path).toBe(before.path);
      expect(after.hash).not.toBe(before.hash);
      expect(after.file_name).toBe('dune-2.png');

      const viewer = await tabAs('viewer');
      const shown = viewer.getByRole('dialog', { name: 'dune-2.png' });
      await shown.getByText('You may look at this file but not change it.').waitFor();
      expect(await shown.getByLabel('Alt text', { exact: true }).isEditable()).toBe(false);
      expect(await shown.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
      expect(await shown.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
      expect(await viewer.getByLabel('Upload', { exact: true }).count()).toBe(0);
    } finally {
      for (const tab of tabs) await tab.context().close();
      await server.dispose();
    }
  });
});
