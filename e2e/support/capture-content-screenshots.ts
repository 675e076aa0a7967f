/**
 * Takes the README's screenshots of content modeling with demo data, in Chromium:
 * `npx tsx e2e/support/capture-content-screenshots.ts [outDir]` (default docs/screenshots). Builds
 * nothing: run `npm run build` first. Writes content-types.png (the Articles type's fields and the
 * form they make) and article-editor.png (an article with its image, tags, category and Markdown body),
 * and each again in the dark theme (`-dark.png`); QUIRE_SCREENSHOT_SCHEME (`light` or `dark`) takes
 * one only.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { packageRoot } from '../../server/config/package-root.js';
import { addDemoContent } from '../../server/content/demo-content.js';
import { seedArticles } from './article-seed.js';
import { launchBrowser, startEditorServer } from './editor-harness.js';
import { screenshotFile, screenshotPage, screenshotSchemes } from './screenshot-schemes.js';

const outDir = process.argv[2] ?? join(packageRoot(), 'docs', 'screenshots');

/** Scrolls a scrolling element so that `target` (inside it) sits `gap` pixels below its top. */
async function scrollTo(page: Page, scroller: string, target: string, gap: number): Promise<void> {
  await page.locator(scroller).evaluate(
    (element: any, { selector, space }) => {
      const inner = element.querySelector(selector);
      element.scrollTop += inner.getBoundingClientRect().top - element.getBoundingClientRect().top - space;
    },
    { selector: target, space: gap },
  );
}

const server = await startEditorServer();
const browser = await launchBrowser();
try {
  await addDemoContent(server.services.registry, server.services.rows);
  const articles = await seedArticles(server.api);
  await fetch(`${server.api}/cms-content/articles`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ preview_path: 'http://localhost:4321/blog/{slug}' }),
  });
  mkdirSync(outDir, { recursive: true });
  for (const scheme of screenshotSchemes()) {
    const { page, close } = await screenshotPage(browser, scheme, { width: 1440, height: 1000 });
    // The Articles type: its rich fields beside the form they make.
    await page.goto(`${server.origin}/settings/content-types/edit/articles`);
    await page.getByRole('group', { name: 'Field 5: Description' }).waitFor();
    await scrollTo(page, '.main', '[aria-label="Field 5: Description"]', 128);
    await scrollTo(page, '.schema-side', '.field-markdown', 80);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(outDir, screenshotFile('content-types', scheme)) });

    // An article: image, Markdown body with its preview, tags and category.
    await page.goto(`${server.origin}/articles/rows/${articles[0].id}`);
    await page.getByRole('img', { name: 'Image preview' }).waitFor();
    await page.getByRole('button', { name: 'Split', exact: true }).click();
    await page.getByRole('region', { name: 'Body preview' }).getByRole('heading').first().waitFor();
    await scrollTo(page, '.main', '.field-markdown', 132);
    await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(outDir, screenshotFile('article-editor', scheme)) });
    await close();
  }
  console.log(`Screenshots written to ${outDir}`);
} finally {
  await browser.close();
  await server.dispose();
}
