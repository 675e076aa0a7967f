import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { signature } from './hook-delivery.js';
import { isHookUrl, parseHookInput } from './hook-input.js';

const tables: Record<string, string> = { news: 'news', 'news-slug': 'news', categories: 'categories' };
const tableOf = (name: string) => tables[name] ?? null;

describe('hook input', () => {
  it('takes only absolute http(s) addresses', () => {
    for (const url of ['https://example.com/hook', 'http://127.0.0.1:8080/build?x=1', 'https://[::1]/h']) {
      expect(isHookUrl(url), url).toBe(true);
    }
    for (const url of [
      'ftp://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      '/relative',
      'https://',
      // fetch refuses to send credentials in a URL: such a hook could never be delivered.
      'http://user:pass@127.0.0.1:9/',
      42,
    ]) {
      expect(isHookUrl(url), String(url)).toBe(false);
    }
    expect(isHookUrl(`https://example.com/${'a'.repeat(3000)}`)).toBe(false);
  });

  it('stores content types as tables (slugs accepted, repeats dropped) and names every problem at once', () => {
    expect(parseHookInput({ url: 'https://x.test', content_types: ['news-slug', 'news'] }, 'create', tableOf)).toEqual({
      url: 'https://x.test',
      content_types: ['news'],
    });
    try {
      parseHookInput({ content_types: ['nope'], actions: ['publish'], secret: 7 }, 'create', tableOf);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect(Object.keys((error as AppError).problems ?? {}).sort()).toEqual([
        'actions',
        'content_types',
        'secret',
        'url',
      ]);
    }
  });

  it('changes only what a change names; an empty secret removes it', () => {
    expect(parseHookInput({ secret: '' }, 'change', tableOf)).toEqual({ secret: null });
    expect(parseHookInput({ actions: null }, 'change', tableOf)).toEqual({ actions: null });
  });

  it('signs with HMAC-SHA256 of the body as hex', () => {
    // RFC 4231 test case 2.
    expect(signature('Jefe', 'what do ya want for nothing?')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
});
