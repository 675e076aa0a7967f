import { describe, expect, it } from 'vitest';
import { normalizeOrigin } from './origin-guard.js';

describe('normalizeOrigin (--cors-origin values)', () => {
  it('reduces a URL to its origin', () => {
    expect(normalizeOrigin('http://localhost:3000/')).toBe('http://localhost:3000');
    expect(normalizeOrigin('https://Site.Example')).toBe('https://site.example');
    expect(normalizeOrigin('http://site.example:80')).toBe('http://site.example');
  });

  it('refuses null, wildcards, paths, credentials and other schemes', () => {
    for (const value of [
      'null',
      '*',
      'http://site.example/path',
      'http://u:p@site.example',
      'file:///x',
      'ftp://a.b',
      'site.example',
    ]) {
      expect(() => normalizeOrigin(value), value).toThrow();
    }
  });
});
