import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseRoleRule } from '../common/single-sign-on-rules.js';
import { builtEditorDir } from '../server/config/package-root.js';
import { startTestProvider, type TestProvider } from '../server/test-support/oidc-test-provider.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import { browserPerFile } from './support/editor-harness.js';

/**
 * Single sign-on in Chromium against a real OpenID Connect provider (oidc-provider) on this
 * machine: the sign-in page offers "Sign in with <provider>", the browser goes through the
 * provider's own login and consent pages and lands in the editor signed in; a refused person lands
 * on the sign-in page with the reason; with password sign-in off the page shows no password form.
 */

const { browser, servers, pages } = browserPerFile();
const providers: TestProvider[] = [];
const errors: string[] = [];

afterAll(async () => {
  await Promise.all(providers.map((provider) => provider.close()));
});
afterEach(() => {
  expect(errors.splice(0)).toEqual([]);
});

/** A provider with ada (a Quire admin by group) and eve (no rule matches), and a server using it. */
async function start(options: { passwordSignIn?: boolean } = {}): Promise<TestServer> {
  const provider = await startTestProvider();
  providers.push(provider);
  provider.people.set('p-ada', { preferred_username: 'ada', email: 'ada@corp.test', groups: ['quire-admins'] });
  provider.people.set('p-eve', { preferred_username: 'eve', email: 'eve@elsewhere.test' });
  const server = await startTestServer({
    editorDir: builtEditorDir(),
    passwordSignIn: options.passwordSignIn,
    singleSignOn: {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      roles: [parseRoleRule('admin:groups=quire-admins')],
      name: 'Team ID',
      invitedOnly: false,
    },
  });
  servers.push(server);
  provider.register(`${server.origin}/api/auth/oidc/callback`);
  // An account exists (made as an admin would, from the command line), so the editor asks to sign in.
  const made = await fetch(`${server.api}/accounts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'root', role: 'admin', password: 'correct horse battery staple' }),
  });
  expect(made.status).toBe(201);
  return server;
}

/**
 * A fresh browser context. Not `openTab`'s: it lays the editor's strict policy over every document,
 * and the provider's development pages (inline styles, a form whose answer redirects through the
 * provider) are not the editor's to keep to it; the editor's own pages keep to it in every other
 * editor test. Page errors fail the test here too.
 */
async function tab(): Promise<Page> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-GB' });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => errors.push(error.message));
  pages.push(page);
  return page;
}

/** Through the provider's own pages: its login form (any password), then its consent form. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('single sign-on in the editor', () => {
  it('signs in through the provider and lands in the editor signed in with the mapped role', async () => {
    const server = await start();
    const page = await tab();
    await page.goto(`${server.origin}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // Passwords still work here: both ways are offered.
    await page.getByLabel('Password', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Sign in with Team ID' }).click();
    await signInAtProvider(page, 'p-ada');
    await page.getByTestId('signed-in-as').filter({ hasText: 'ada' }).waitFor();
    expect(new URL(page.url()).origin).toBe(server.origin);
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).json());
    expect(me).toMatchObject({ signed_in: true, via: 'session', name: 'ada', role: 'admin' });
  });

  it('brings a person no rule matches back to the sign-in page with the reason', async () => {
    const server = await start();
    const page = await tab();
    await page.goto(`${server.origin}/`);
    await page.getByRole('link', { name: 'Sign in with Team ID' }).click();
    await signInAtProvider(page, 'p-eve');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('not allowed into this Quire');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The reason leaves the address bar: a reload does not say it again.
    expect(new URL(page.url()).search).toBe('');
  });

  it('shows no password form when password sign-in is off', async () => {
    const server = await start({ passwordSignIn: false });
    const page = await tab();
    await page.goto(`${server.origin}/`);
    await page.getByRole('link', { name: 'Sign in with Team ID' }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    expect(await page.getByText('sign in with your organization’s account').count()).toBe(1);
  });
});
