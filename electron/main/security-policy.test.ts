import { EventEmitter } from 'node:events';
import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { guardWebContents } from './security-handlers.js';
import { decideNavigation, decideWindowOpen, isAppUrl, isExternalWebUrl } from './security-policy.js';

const app = 'http://127.0.0.1:4780';

describe('navigation policy', () => {
  const cases: [string, string][] = [
    ['http://127.0.0.1:4780/news/12', 'allow'],
    ['http://127.0.0.1:4780/?q=a#top', 'allow'],
    ['http://127.0.0.1:4781/', 'open-externally'],
    ['http://localhost:4780/', 'open-externally'],
    ['https://example.com/docs', 'open-externally'],
    ['http://example.com/', 'open-externally'],
    ['file:///etc/passwd', 'deny'],
    ['javascript:alert(1)', 'deny'],
    ['data:text/html,<script>alert(1)</script>', 'deny'],
    ['mailto:ana@example.com', 'deny'],
    ['smb://server/share', 'deny'],
    ['https://user:pass@example.com/', 'deny'],
    ['not a url', 'deny'],
  ];
  for (const [url, decision] of cases) {
    it(`${decision}: ${url}`, () => {
      expect(decideNavigation(url, app)).toBe(decision);
    });
  }

  it('allows nothing in the window before the editor has an origin', () => {
    expect(decideNavigation('http://127.0.0.1:4780/', null)).toBe('open-externally');
    expect(isAppUrl('http://127.0.0.1:4780/', null)).toBe(false);
  });

  it('never opens a new app window; only http(s) goes to the OS browser', () => {
    expect(decideWindowOpen('https://example.com/')).toBe('open-externally');
    expect(decideWindowOpen('http://127.0.0.1:4780/news')).toBe('open-externally');
    expect(decideWindowOpen('file:///home/ana/secret.txt')).toBe('deny');
    expect(decideWindowOpen('about:blank')).toBe('deny');
    expect(isExternalWebUrl('ftp://example.com/')).toBe(false);
  });
});

/** A WebContents stand-in: records handlers, lets the test fire events. */
class FakeContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  navigate(event: 'will-frame-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false;
    this.emit(event, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

describe('web contents guard', () => {
  function guarded() {
    const contents = new FakeContents();
    const opened: string[] = [];
    guardWebContents(contents as unknown as WebContents, {
      appOrigin: () => app,
      openExternally: (url) => opened.push(url),
    });
    return { contents, opened };
  }

  it('lets the editor navigate within its origin', () => {
    const { contents, opened } = guarded();
    expect(contents.navigate('will-frame-navigate', `${app}/categories`)).toBe(false);
    expect(opened).toEqual([]);
  });

  it('keeps foreign pages out of the window and opens http(s) ones in the OS browser', () => {
    const { contents, opened } = guarded();
    expect(contents.navigate('will-frame-navigate', 'https://example.com/')).toBe(true);
    expect(contents.navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.navigate('will-frame-navigate', 'file:///etc/passwd')).toBe(true);
    expect(opened).toEqual(['https://example.com/', 'https://evil.example/']);
  });

  it('denies every window.open, handing http(s) links to the OS browser', () => {
    const { contents, opened } = guarded();
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/']);
  });

  it('refuses to attach webviews', () => {
    const { contents } = guarded();
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });
});
