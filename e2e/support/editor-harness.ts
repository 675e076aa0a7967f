import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { ContentRow, CreateRowResponse, ListResponse } from '../../common/api-contract.js';
import { builtEditorDir, packageRoot } from '../../server/config/package-root.js';
import { startTestServer, type TestServer } from '../../server/test-support/test-server.js';

/** Debian's Chromium; CI installs it with apt-get (no browser downloads). */
export const CHROMIUM_PATH = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';

/** The launch flags every Quire browser test uses. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The policy the editor must live with: scripts, styles, images and requests from its own origin
 * only; no inline script, no eval, no inline style attributes, no external fonts or CDNs. Enforced on
 * the editor's pages on top of the server's own policy, so a violation of either fails a test.
 */
export const STRICT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Where failure screenshots go. */
export const RESULTS_DIR = join(packageRoot(), 'test-results');

/** Launches Chromium, or fails with the one line that says how to get it. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not at ${CHROMIUM_PATH}: install it with "apt-get install chromium" (.ci/run does).`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A Quire server on a temporary database that serves the built editor. */
export async function startEditorServer(): Promise<TestServer> {
  const editorDir = builtEditorDir();
  if (!existsSync(join(editorDir, 'index.html'))) {
    throw new Error(`The editor is not built (${editorDir}); run "node scripts/build.mjs".`);
  }
  return startTestServer({ editorDir });
}

/** A browser tab on the editor, with what went wrong inside it. */
export interface EditorTab {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and Content-Security-Policy violations. */
  problems: string[];
}

/**
 * Opens a fresh browser context (own storage) with the strict CSP and problem collection; `options`
 * (a viewport, a color scheme) replace the defaults.
 */
export async function openTab(browser: Browser, options: BrowserContextOptions = {}): Promise<EditorTab> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-GB', ...options });
  await context.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const headers = response.headers();
    // Comma-joined policies are all enforced: the server's own, and the strict one on top.
    const own = headers['content-security-policy'];
    headers['content-security-policy'] = own ? `${own}, ${STRICT_CSP}` : STRICT_CSP;
    return route.fulfill({ response, headers });
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      problems.push(`CSP violation: ${message.text()}`);
    }
  });
  return { context, page, problems };
}

/** Saves a screenshot of a failed test to test-results/ and returns its path. */
export async function saveFailureScreenshot(page: Page, testName: string): Promise<string | null> {
  try {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, `${testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 100)}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  } catch {
    return null;
  }
}

/** Minimal typed API calls for arranging and checking data behind the browser's back. */
export function apiOf(server: TestServer) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${server.api}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  return {
    async create(type: string, values: Record<string, unknown>): Promise<ContentRow> {
      const { status, body } = await call<CreateRowResponse>('POST', `/cms/${type}`, values);
      if (status !== 201) throw new Error(`Seeding ${type} failed with ${status}: ${JSON.stringify(body)}`);
      return body.rows[0];
    },
    async list(type: string, query = ''): Promise<ListResponse> {
      const { status, body } = await call<ListResponse>('GET', `/cms/${type}${query}`);
      if (status !== 200) throw new Error(`Listing ${type} failed with ${status}`);
      return body;
    },
    async get(type: string, id: string): Promise<{ status: number; row: ContentRow | null }> {
      const { status, body } = await call<ListResponse>('GET', `/cms/${type}/${encodeURIComponent(id)}`);
      return { status, row: status === 200 ? body.rows[0] : null };
    },
  };
}

/** The text of the elements that describe an input (its error and hint), via aria-describedby. */
export async function descriptionOf(page: Page, label: string): Promise<string> {
  // One read inside the page, so the answer is consistent even while the form re-renders.
  return page.getByLabel(label, { exact: true }).evaluate((element: any) =>
    String(element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id: string) => element.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** What a browser test file works with; filled in by the hooks `editorSuite` registers. */
export interface EditorSuite {
  server: TestServer;
  browser: Browser;
  api: ReturnType<typeof apiOf>;
  /** The current test's tab. */
  page: Page;
  /** An absolute editor URL for a path such as `/news`. */
  url(path: string): string;
}

/**
 * Registers the hooks of a browser test file: one server (temporary database) and one Chromium for
 * the file, a fresh browser context per test, a screenshot in test-results/ when a test fails, and a
 * failure when the page threw or broke the Content-Security-Policy.
 */
export function editorSuite(): EditorSuite {
  let tab: EditorTab | null = null;
  const suite = {
    url: (path: string) => `${suite.server.origin}${path}`,
  } as EditorSuite;
  beforeAll(async () => {
    suite.server = await startEditorServer();
    suite.api = apiOf(suite.server);
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.dispose();
  });
  beforeEach(async () => {
    tab = await openTab(suite.browser);
    suite.page = tab.page;
  });
  afterEach(async (context) => {
    if (!tab) return;
    const current = tab;
    tab = null;
    if (context.task.result?.state === 'fail') {
      const file = await saveFailureScreenshot(current.page, context.task.name);
      if (file) console.error(`Screenshot of the failed test: ${file}`);
    }
    await current.context.close();
    if (current.problems.length > 0) throw new Error(`The editor page had problems:\n${current.problems.join('\n')}`);
  });
  return suite;
}

/** What a browser test file that starts its own servers works with (see `browserPerFile`). */
export interface BrowserFile {
  /** The file's Chromium, launched before its first test. */
  browser(): Browser;
  /** The servers the file started: disposed after its last test. */
  servers: TestServer[];
  /** The tabs the current test opened: each screenshotted when it fails, all forgotten after it. */
  pages: Page[];
}

/**
 * Registers the hooks of a browser test file that starts servers of its own (accounts, sign-in
 * flows, several tabs a test): one Chromium for the file, its servers disposed at the end, and a
 * screenshot in test-results/ of each tab of a test that failed.
 */
export function browserPerFile(): BrowserFile {
  let browser: Browser | undefined;
  const file: BrowserFile = {
    browser: () => {
      if (!browser) throw new Error("The file's Chromium is launched in its beforeAll");
      return browser;
    },
    servers: [],
    pages: [],
  };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(file.servers.map((server) => server.dispose()));
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') {
      for (const page of file.pages) await saveFailureScreenshot(page, context.task.name);
    }
    file.pages.length = 0;
  });
  return file;
}
