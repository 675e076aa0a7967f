import { describe, expect, it } from 'vitest';
import type { MediaAssetDetail } from '../common/asset-contract.js';
import { uploadPng } from './support/article-seed.js';
import { expectAccessible } from './support/axe-check.js';
import { editorSuite } from './support/editor-harness.js';
import { landscapePng } from './support/png-image.js';

/**
 * An image field showing an image saved earlier: its pixel size and alt text come from the media
 * library by path, the missing-alt warning describes the alt text's input, and the alt text typed
 * there is saved to the asset (Enter saves it, not the row) and shown again after a reload.
 */

const suite = editorSuite();

async function byPath(path: string): Promise<MediaAssetDetail> {
  const response = await fetch(`${suite.server.api}/media/by-path?path=${encodeURIComponent(path)}`);
  expect(response.status).toBe(200);
  return (await response.json()) as MediaAssetDetail;
}

describe('the image field of a saved row', () => {
  it('shows the image’s size and alt text from the library, and edits the alt text in place', async () => {
    const { page } = suite;
    const upload = await uploadPng(suite.server.api, landscapePng(360, 240, 120), 'quay.png');
    const article = await suite.api.create('articles', {
      title: 'Dawn at the quay',
      status: 'draft',
      published_at: '2026-06-01 10:00:00',
      image: upload.path,
    });
    await page.goto(suite.url(`/articles/rows/${article.id}`));

    const alt = page.getByLabel('Alt text for Image', { exact: true });
    await alt.waitFor();
    await page.getByText(/^360 × 240 px · /).waitFor();
    const warning = page.getByText('This image has no alt text: describe it for people who cannot see it.');
    await warning.waitFor();
    expect(await alt.getAttribute('aria-describedby')).toBe(await warning.getAttribute('id'));
    const save = page.getByRole('button', { name: 'Save alt text for Image' });
    expect(await save.isDisabled()).toBe(true);
    await expectAccessible(page, 'an image field with no alt text');
    // The crops are the server's own, drawn: each image decoded at its box's size.
    const crops = page.locator('.image-crops img');
    await expect
      .poll(() => crops.evaluateAll((images: any[]) => images.map((image) => image.naturalWidth)))
      .toEqual([144, 256]);

    await alt.fill('Fishing boats moored at the quay at dawn');
    expect(await save.isEnabled()).toBe(true);
    await alt.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Alt text saved.' }).waitFor();
    await warning.waitFor({ state: 'detached' });
    expect((await byPath(upload.path)).alt).toBe('Fishing boats moored at the quay at dawn');
    // Enter saved the alt text only: the row itself is as it was.
    expect((await suite.api.get('articles', article.id)).row?.updated_at).toBe(article.updated_at);
    await expectAccessible(page, 'an image field with its alt text saved');

    await page.reload();
    await expect
      .poll(() => page.getByLabel('Alt text for Image', { exact: true }).inputValue())
      .toBe('Fishing boats moored at the quay at dawn');
    expect(await page.getByText('This image has no alt text', { exact: false }).count()).toBe(0);
  });
});
