import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/i18n-instance.js';
import { LazyScreen, lazyNamed } from './lazy-screen.js';

/** A module with one named component, as a page module has. */
const greetingModule = { Greeting: ({ name }: { name: string }) => <p>Hello, {name}</p> };

describe('LazyScreen', () => {
  it('shows the loading state until the chunk has loaded, then its named component', async () => {
    let loaded: (module: typeof greetingModule) => void = () => {};
    const Greeting = lazyNamed(() => new Promise<typeof greetingModule>((resolve) => (loaded = resolve)), 'Greeting');
    render(
      <LazyScreen>
        <Greeting name="Ada" />
      </LazyScreen>,
    );
    expect(screen.getByRole('status').textContent).toBe('Opening…');
    loaded(greetingModule);
    expect((await screen.findByText('Hello, Ada')).tagName).toBe('P');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says the part did not load and offers a reload when its chunk fails, not a blank editor', async () => {
    // React reports the caught error on the console; this test expects it.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = lazyNamed(
      () => Promise.reject<typeof greetingModule>(new TypeError('Failed to fetch dynamically imported module')),
      'Greeting',
    );
    render(
      <LazyScreen>
        <Broken name="Ada" />
      </LazyScreen>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('This part of the editor did not load');
    expect(screen.getByRole('button', { name: 'Reload' }).tagName).toBe('BUTTON');
    quiet.mockRestore();
  });

  it("renders a screen once its own catalogs have loaded in the editor's language", async () => {
    await i18n.changeLanguage('de');
    try {
      // The test setup loads every namespace: leave this one out, as a screen not yet opened.
      i18n.removeResourceBundle('de', 'pages-audit');
      const auditModule = { Audit: () => <h1>{i18n.t('pages-audit:title')}</h1> };
      const Audit = lazyNamed(async () => auditModule, 'Audit', ['pages-audit']);
      render(
        <LazyScreen>
          <Audit />
        </LazyScreen>,
      );
      expect((await screen.findByRole('heading')).textContent).toBe('Audit-Protokoll');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
