import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TwoFactorRequirement } from '../server/accounts/two-factor-service.js';
import { builtEditorDir } from '../server/config/package-root.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { browserPerFile, openTab } from './support/editor-harness.js';

/**
 * Two-factor sign-in in the editor, in Chromium: Settings › Security sets it up (QR code and key,
 * a code computed here from the key shown, recovery codes shown once), signing in then asks for a
 * code after the password (a wrong one is said so; a recovery code works too), and with
 * `--require-2fa` the setup is the only screen until it is done. The server's clock is the
 * test's, so the codes are of chosen time steps.
 */

const PASSWORD = 'correct horse battery staple';
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const clock = { ms: Date.UTC(2026, 10, 28, 21, 0, 5) };

const { browser, servers, pages } = browserPerFile();

/** A server with the editor and ada, its first admin (made through the API). */
async function start(requirement: TwoFactorRequirement = null): Promise<TestServer> {
  const server = await startTestServer({
    editorDir: builtEditorDir(),
    twoFactor: { requirement, now: () => clock.ms },
  });
  servers.push(server);
  const made = await fetch(`${server.api}/auth/first-run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ada', password: PASSWORD }),
  });
  expect(made.status).toBe(201);
  return server;
}

async function tab(server: TestServer): Promise<{ page: Page; problems: string[] }> {
  const opened = await openTab(browser());
  pages.push(opened.page);
  await opened.page.goto(server.origin);
  return opened;
}

/** The code an authenticator app shows for `secret`, `steps` time steps from the clock's now. */
function appCode(secret: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.ms + steps * 30_000 });
}

/** The password step of the sign-in page. */
async function enterPassword(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await field(page, 'Name').fill('ada');
  await field(page, 'Password').fill(PASSWORD);
  await button(page, 'Sign in').click();
}

/** Sets up two-factor sign-in on the Security screen: returns the key shown and the recovery codes. */
async function setUp(page: Page): Promise<{ secret: string; codes: string[] }> {
  await button(page, 'Set up two-factor sign-in').click();
  await expect
    .poll(() => page.getByRole('img', { name: 'QR code to add Quire to an authenticator app' }).isVisible())
    .toBe(true);
  const secret = (await page.getByTestId('two-factor-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // A wrong code is said so, and nothing is turned on.
  await field(page, 'Then enter the six-digit code the app shows').fill(appCode(secret, 4));
  await button(page, 'Turn on').click();
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('The code is wrong');
  await field(page, 'Then enter the six-digit code the app shows').fill(appCode(secret));
  await button(page, 'Turn on').click();
  const heading = page.getByRole('heading', { name: 'Two-factor sign-in is on: save your recovery codes' });
  await heading.waitFor();
  // Focus moves to what is new, for keyboard and screen-reader users.
  await expect.poll(() => heading.evaluate((node) => node === node.ownerDocument.activeElement)).toBe(true);
  const codes = await page.getByTestId('recovery-codes').locator('li').allTextContents();
  expect(codes).toHaveLength(10);
  return { secret, codes: codes.map((code) => code.trim()) };
}

describe('two-factor sign-in in the editor', () => {
  it('set up on Settings › Security, then asked for after the password; a recovery code works once', async () => {
    const server = await start();
    const { page, problems } = await tab(server);
    await enterPassword(page);
    await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in is off' }).waitFor();
    const { secret, codes } = await setUp(page);
    await button(page, 'I have saved them').click();
    await page.getByRole('heading', { name: 'Two-factor sign-in is on' }).waitFor();
    expect(await page.getByTestId('recovery-codes-left').textContent()).toBe('10 recovery codes are left.');

    // Signed out, the password alone no longer signs in: the code is asked for next.
    await button(page, 'Sign out').click();
    await enterPassword(page);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await expect
      .poll(() => field(page, 'Code').evaluate((node) => node === node.ownerDocument.activeElement))
      .toBe(true);
    await field(page, 'Code').fill(appCode(secret, 6));
    await button(page, 'Verify and sign in').click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The code is wrong or was already used');
    await field(page, 'Code').fill(appCode(secret, 1));
    await button(page, 'Verify and sign in').click();
    await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();

    // A recovery code instead of the app's, once.
    await button(page, 'Sign out').click();
    await enterPassword(page);
    await button(page, 'Use a recovery code instead').click();
    await field(page, 'Recovery code').fill(codes[0]);
    await button(page, 'Verify and sign in').click();
    await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();
    await page.getByRole('link', { name: 'Security' }).click();
    await expect.poll(() => page.getByTestId('recovery-codes-left').textContent()).toBe('9 recovery codes are left.');

    // Turned off with the password and a code: the password alone signs in again.
    await field(page, 'Password').fill(PASSWORD);
    await field(page, 'Code from the app, or a recovery code').fill(codes[1]);
    await button(page, 'Turn off two-factor sign-in').click();
    await page.getByRole('heading', { name: 'Two-factor sign-in is off' }).waitFor();
    await button(page, 'Sign out').click();
    await enterPassword(page);
    await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('with --require-2fa admins, an admin without it sees only the setup, then the editor', async () => {
    const server = await start('admins');
    const { page, problems } = await tab(server);
    await enterPassword(page);
    await page.getByText('This Quire requires two-factor sign-in for your account. Set it up to continue.').waitFor();
    expect(await page.getByTestId('signed-in-as').count()).toBe(0);
    await setUp(page);
    await button(page, 'I have saved them').click();
    await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();
    expect(problems).toEqual([]);
  });
});
