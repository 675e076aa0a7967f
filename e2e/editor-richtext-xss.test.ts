import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '../server/test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { XSS_PAYLOADS } from '../server/test-support/xss-payloads.js';
import { browserPerFile } from './support/editor-harness.js';

/**
 * The rich-text allow-list in real Chromium: every payload of the XSS corpus is written through the
 * API, read back, and the stored HTML put into a page with no Content-Security-Policy, as a site
 * built from it might be; hovering, focusing and clicking every element must not run any of it.
 * The same page with the payloads as sent shows that the check sees script that runs.
 */

const { browser, servers, pages } = browserPerFile();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  servers.push(server);
  const columns = [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'body', label: 'Body', type: 'richtext', required: false },
  ];
  const created = await request(server, 'POST', '/cms-content', { json: { title: 'Pages', table: 'pages', columns } });
  expect(created.response.status, created.text).toBe(201);
});

/** A page of its own with `bodies` in it, each in a section; no request leaves it. */
async function pageWith(bodies: readonly string[]): Promise<Page> {
  const context = await browser().newContext();
  await context.route('**/*', (route) => route.abort());
  const page = await context.newPage();
  pages.push(page);
  const sections = bodies.map((body) => `<section>${body}</section>`).join('\n');
  await page.setContent(`<!doctype html><html><head><title>Site</title></head><body>${sections}</body></html>`, {
    waitUntil: 'load',
  });
  return page;
}

/** Moves over, focuses and clicks every element (links kept from navigating), then reads the flag. */
async function ranScript(page: Page): Promise<boolean> {
  await page.evaluate(() => {
    const doc = (globalThis as any).document;
    doc.addEventListener('click', (event: any) => event.preventDefault(), true);
    for (const element of doc.body.querySelectorAll('*')) {
      for (const type of ['mouseover', 'mouseenter', 'focus', 'click']) {
        element.dispatchEvent(new (globalThis as any).Event(type, { bubbles: true }));
      }
    }
  });
  await page.waitForTimeout(300);
  return page.evaluate(() => (globalThis as any).__xss === 1);
}

describe('stored rich text in Chromium', () => {
  it('runs none of the XSS corpus once stored', async () => {
    const ids: string[] = [];
    for (const [index, payload] of XSS_PAYLOADS.entries()) {
      const { response, body, text } = await request(server, 'POST', '/cms/pages', {
        json: { title: `Payload ${index}`, body: payload },
      });
      expect(response.status, text).toBe(201);
      ids.push(body.id);
    }
    const { body } = await request(server, 'GET', '/cms/pages?limit=100');
    const stored = body.rows.map((row: { body: string | null }) => row.body ?? '');
    expect(stored).toHaveLength(XSS_PAYLOADS.length);
    expect(await ranScript(await pageWith(stored))).toBe(false);
  });

  it('sees script that runs (the payloads as sent)', async () => {
    expect(await ranScript(await pageWith(XSS_PAYLOADS))).toBe(true);
    expect(await ranScript(await pageWith(['<a onmouseover="window.__xss=1">hover</a>']))).toBe(true);
  });
});
