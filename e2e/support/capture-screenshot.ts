/**
 * Takes the README's screenshots of the editor with demo data, in Chromium:
 * `npx tsx e2e/support/capture-screenshot.ts [outDir]` (default docs/screenshots). Builds nothing:
 * run `npm run build` first. Writes editor.png (the news list) and editor-row.png (a row's form),
 * and each again in the dark theme (editor-dark.png, editor-row-dark.png); QUIRE_SCREENSHOT_SCHEME
 * (`light` or `dark`) takes one only.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../server/config/package-root.js';
import { addDemoContent } from '../../server/content/demo-content.js';
import { launchBrowser, startEditorServer } from './editor-harness.js';
import { screenshotFile, screenshotPage, screenshotSchemes } from './screenshot-schemes.js';

const outDir = process.argv[2] ?? join(packageRoot(), 'docs', 'screenshots');

const server = await startEditorServer();
const browser = await launchBrowser();
try {
  await addDemoContent(server.services.registry, server.services.rows);
  mkdirSync(outDir, { recursive: true });
  for (const scheme of screenshotSchemes()) {
    const { page, close } = await screenshotPage(browser, scheme, { width: 1360, height: 820 });
    await page.goto(`${server.origin}/news`);
    await page.getByRole('table').waitFor();
    await page.getByRole('row').nth(8).hover();
    await page.screenshot({ path: join(outDir, screenshotFile('editor', scheme)) });

    await page.getByRole('row').nth(2).getByRole('link').click();
    await page.getByLabel('Title', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit SEO' }).click();
    // An unsaved edit, so the screenshot shows the Save button ready.
    const title = page.getByLabel('Title', { exact: true });
    await title.fill(`${await title.inputValue()}!`);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(outDir, screenshotFile('editor-row', scheme)) });
    await close();
  }
  console.log(`Screenshots written to ${outDir}`);
} finally {
  await browser.close();
  await server.dispose();
}
