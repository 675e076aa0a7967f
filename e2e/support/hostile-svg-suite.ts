import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaAsset } from '../../common/asset-contract.js';
import { type SvgPayload, svgPayloads } from '../../server/test-support/svg-payloads.js';
import { editorSuite } from './editor-harness.js';

/**
 * Hostile SVG uploads in Chromium. Every payload of the SVG corpus would set the page's title to
 * `xss` and fetch from a listener of the suite (the beacon) if it ran, or load from it. Each layer
 * is shown alone: the stored bytes served from the beacon with no policy at all, the Quire URL
 * opened directly (its sandboxing policy), and the editor's Media screen and image field showing
 * them. The payloads as sent, served the same way, show that the check sees script that runs.
 */

/**
 * One of each way a payload tries to run or load something: a script element and a remote one, an
 * event handler on the root and on an element (hovered), a `javascript:` link and one an animation
 * sets, remote images and stylesheets (an element and a processing instruction), HTML inside a
 * foreignObject. `npm test` shows these in Chromium; `npm run test:stress` the whole corpus. The API
 * tests (svg-uploads-api.test.ts) check what is stored of every payload on both engines.
 */
export const REPRESENTATIVE_SVG_PAYLOADS: readonly string[] = [
  'script',
  'script-external',
  'onload-root',
  'onload-element',
  'link-javascript',
  'set-href',
  'image-remote',
  'style-import',
  'xml-stylesheet',
  'foreign-object',
];

/**
 * Registers the hostile SVG tests of one file (an editor suite of its own) for the payloads of the
 * corpus `named` names, or every payload when it names none.
 */
export function hostileSvgSuite(named: readonly string[] = []): void {
  const suite = editorSuite();

  /** The listener: serves documents under /serve/ and counts every other request (a payload that reached out). */
  let beacon: Server;
  let beaconOrigin = '';
  const documents = new Map<string, string>();
  const hits: string[] = [];
  let uploaded: { payload: SvgPayload; asset: MediaAsset }[] = [];

  beforeAll(async () => {
    beacon = createServer((req, res) => {
      const url = req.url ?? '';
      const served = url.startsWith('/serve/') ? documents.get(url.slice('/serve/'.length)) : undefined;
      // The browser asks any origin it opens for its icon; every other request came from a payload.
      if (served === undefined && url !== '/favicon.ico') hits.push(url);
      res.writeHead(served === undefined ? 404 : 200, { 'Content-Type': 'image/svg+xml' });
      res.end(served ?? '');
    });
    await new Promise<void>((resolve) => beacon.listen(0, '127.0.0.1', resolve));
    beaconOrigin = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    uploaded = [];
    const corpus = svgPayloads(beaconOrigin);
    const payloads = named.length === 0 ? corpus : corpus.filter(({ name }) => named.includes(name));
    // A name the corpus no longer has would shrink the test without a word.
    expect(payloads).toHaveLength(named.length || corpus.length);
    for (const payload of payloads) {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from(payload.svg)], { type: 'image/svg+xml' }), `${payload.name}.svg`);
      const response = await fetch(`${suite.server.api}/uploads?duplicate=true`, { method: 'POST', body: form });
      expect(response.status, payload.name).toBe(201);
      uploaded.push({ payload, asset: (await response.json()) as MediaAsset });
    }
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => beacon.close(() => resolve()));
  });

  /** A plain tab (no policy added by the harness): what a visitor's browser does with the URL alone. */
  async function plainPage(browser: Browser): Promise<Page> {
    const context = await browser.newContext();
    return context.newPage();
  }

  /** Opens `url`, clicks and hovers every element (links kept from navigating), and says whether script ran. */
  async function ranScript(page: Page, url: string): Promise<boolean> {
    await page.goto(url, { waitUntil: 'load' });
    for (const element of await page.locator('svg *').all()) {
      if (!(await element.isVisible())) continue;
      await element.hover({ force: true, noWaitAfter: true, timeout: 2000 }).catch(() => undefined);
    }
    return (await page.title()) === 'xss';
  }

  describe('hostile SVG uploads in Chromium', () => {
    it('serves cleaned files whose script never runs, even with no policy at all', async () => {
      const page = await plainPage(suite.browser);
      for (const { payload, asset } of uploaded) {
        const stored = await (await fetch(`${suite.server.origin}${asset.path}`)).text();
        documents.set(`stored-${payload.name}.svg`, stored);
        expect(await ranScript(page, `${beaconOrigin}/serve/stored-${payload.name}.svg`), payload.name).toBe(false);
      }
      await page.context().close();
      expect(hits).toEqual([]);
    });

    it("opens each upload's own URL directly without running or loading anything", async () => {
      const page = await plainPage(suite.browser);
      for (const { payload, asset } of uploaded) {
        expect(await ranScript(page, `${suite.server.origin}${asset.path}`), payload.name).toBe(false);
      }
      await page.context().close();
      expect(hits).toEqual([]);
    });

    it('shows them in the Media screen and an image field as images that run nothing', async () => {
      const { page } = suite;
      await page.goto(suite.url('/settings/media'));
      const tiles = page.getByTestId('media-tile');
      await expect.poll(() => tiles.count()).toBe(uploaded.length);
      // Every thumbnail is an <img> of a raster variant that loaded; no SVG markup is in the page.
      const thumbnails = () =>
        tiles.locator('img').evaluateAll((images: any[]) => images.filter((image) => image.naturalWidth > 0).length);
      await expect.poll(thumbnails).toBe(uploaded.length);
      expect(await page.locator('.media-tile svg, [data-testid="media-tile"] svg').count()).toBe(0);
      await tiles.first().click();
      await page.getByTestId('media-focal').locator('img').waitFor();

      const script = uploaded.find(({ payload }) => payload.name === 'onload-root') as (typeof uploaded)[number];
      const article = await suite.api.create('articles', {
        title: 'Drawn',
        status: 'draft',
        published_at: '2025-03-10 09:30:00',
        image: script.asset.path,
      });
      await page.goto(suite.url(`/articles/rows/${article.id}`));
      const preview = page.locator('img.image-preview');
      await expect.poll(() => preview.evaluate((image: any) => image.naturalWidth)).toBeGreaterThan(0);
      expect(await preview.getAttribute('src')).toContain(script.asset.path);
      expect(await page.evaluate(() => (globalThis as any).__svgXss)).toBeUndefined();
      expect(await page.title()).not.toBe('xss');
      expect(hits).toEqual([]);
    });

    it('sees script that runs and requests that arrive (the payloads as sent, with no policy)', async () => {
      const page = await plainPage(suite.browser);
      for (const name of ['script', 'onload-root']) {
        const payload = svgPayloads(beaconOrigin).find((each) => each.name === name) as SvgPayload;
        documents.set(`raw-${name}.svg`, payload.svg);
        expect(await ranScript(page, `${beaconOrigin}/serve/raw-${name}.svg`), name).toBe(true);
      }
      await expect.poll(() => hits.filter((hit) => hit.startsWith('/script/')).length).toBe(2);
      await page.context().close();
      hits.length = 0;
    });
  });
}
