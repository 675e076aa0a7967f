/**
 * Takes the README's screenshots of content modeling with demo data, in Chromium:
 * `npx tsx e2e/support/capture-content-screenshots.ts [outDir]` (default docs/screenshots). Builds
 * nothing: run `npm run build` first. Writes content-types.png (the Articles type's fields and the
 * form they make) and article-editor.png (an article with its image, tags, category and Markdown body).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../server/config/package-root.js';
import { addDemoContent } from '../../server/content/demo-content.js';
import { seedArticles } from './article-seed.js';
import { launchBrowser, startEditorServer } from './editor-harness.js';

const outDir = process.argv[2] ?? join(packageRoot(), 'docs', 'screenshots');
const scheme = process.env.QUIRE_SCREENSHOT_SCHEME === 'dark' ? 'dark' : 'light';

const server = await startEditorServer();
const browser = await launchBrowser();
try {
  await addDemoContent(server.services.registry, server.services.rows);
  const articles = await seedArticles(server.api);
  mkdirSync(outDir, { recursive: true });
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1.5,
    locale: 'en-GB',
    colorScheme: scheme,
  });
  const page = await context.newPage();

  await page.goto(`${server.origin}/settings/content-types/edit/articles`);
  await page.getByLabel('Preview path', { exact: true }).fill('http://localhost:4321/blog/{slug}');
  // Scrolled to the rich fields, so the picture shows the new types beside their preview.
  await page.getByRole('group', { name: 'Description' }).scrollIntoViewIfNeeded();
  await page.locator('.main').evaluate((main) => main.scrollBy(0, 40));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, `content-types${scheme === 'dark' ? '-dark' : ''}.png`) });

  await page.goto(`${server.origin}/articles/rows/${articles[0].id}`);
  await page.getByRole('img', { name: 'Image preview' }).waitFor();
  await page.getByRole('button', { name: 'Split', exact: true }).click();
  await page.getByRole('region', { name: 'Body preview' }).getByRole('heading').first().waitFor();
  await page.getByLabel('Description', { exact: true }).scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, `article-editor${scheme === 'dark' ? '-dark' : ''}.png`) });
  await context.close();
  console.log(`Screenshots written to ${outDir}`);
} finally {
  await browser.close();
  await server.dispose();
}
