/**
 * Takes the README's screenshots of the editor with demo data, in Chromium:
 * `npx tsx e2e/support/capture-screenshot.ts [outDir]` (default docs/screenshots). Builds nothing:
 * run `npm run build` first. Writes editor.png (the news list) and editor-row.png (a row's form).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../server/config/package-root.js';
import { addDemoContent } from '../../server/content/demo-content.js';
import { launchBrowser, startEditorServer } from './editor-harness.js';

const outDir = process.argv[2] ?? join(packageRoot(), 'docs', 'screenshots');
const scheme = process.env.QUIRE_SCREENSHOT_SCHEME === 'dark' ? 'dark' : 'light';

const server = await startEditorServer();
const browser = await launchBrowser();
try {
  await addDemoContent(server.services.registry, server.services.rows);
  mkdirSync(outDir, { recursive: true });
  const context = await browser.newContext({
    viewport: { width: 1360, height: 820 },
    deviceScaleFactor: 1.5,
    locale: 'en-GB',
    colorScheme: scheme,
  });
  const page = await context.newPage();

  await page.goto(`${server.origin}/news`);
  await page.getByRole('table').waitFor();
  await page.getByRole('row').nth(8).hover();
  await page.screenshot({ path: join(outDir, 'editor.png') });

  await page.getByRole('row').nth(2).getByRole('link').click();
  await page.getByLabel('Title', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Edit SEO' }).click();
  await page
    .getByLabel('Title', { exact: true })
    .fill(`${await page.getByLabel('Title', { exact: true }).inputValue()}!`);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(outDir, 'editor-row.png') });
  await context.close();
  console.log(`Screenshots written to ${outDir}`);
} finally {
  await browser.close();
  await server.dispose();
}
