import type { Browser, Page } from 'playwright-core';

/** A color scheme the docs show the editor in. */
export type ScreenshotScheme = 'light' | 'dark';

/**
 * The schemes to take: the one QUIRE_SCREENSHOT_SCHEME names (`light` or `dark`), else both, as
 * the docs show each screenshot in the reader's own scheme.
 */
export function screenshotSchemes(env: NodeJS.ProcessEnv = process.env): ScreenshotScheme[] {
  const named = env.QUIRE_SCREENSHOT_SCHEME;
  return named === 'light' || named === 'dark' ? [named] : ['light', 'dark'];
}

/** The file of a screenshot in a scheme: `editor.png` in light, `editor-dark.png` in dark. */
export function screenshotFile(name: string, scheme: ScreenshotScheme): string {
  return scheme === 'dark' ? `${name}-dark.png` : `${name}.png`;
}

/** A page for screenshots: the editor's system theme follows `scheme`, at 1.5× for sharp text. */
export async function screenshotPage(
  browser: Browser,
  scheme: ScreenshotScheme,
  viewport: { width: number; height: number },
): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: 1.5,
    locale: 'en-GB',
    colorScheme: scheme,
    reducedMotion: 'reduce',
  });
  return { page: await context.newPage(), close: () => context.close() };
}
