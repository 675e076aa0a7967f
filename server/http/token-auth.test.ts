import { describe, expect, it } from 'vitest';
import { checkToken, generateToken, MIN_TOKEN_LENGTH, tokensMatch } from './token-auth.js';

describe('API tokens', () => {
  it('generates long, URL-safe, different tokens', () => {
    const first = generateToken();
    const second = generateToken();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
  });

  it('matches only the exact token, whatever the lengths', () => {
    const token = 'correct-horse-battery-staple';
    expect(tokensMatch(token, token)).toBe(true);
    expect(tokensMatch('correct-horse-battery-stapl', token)).toBe(false);
    expect(tokensMatch(`${token}x`, token)).toBe(false);
    expect(tokensMatch('', token)).toBe(false);
    expect(tokensMatch(token.toUpperCase(), token)).toBe(false);
  });

  it(`refuses a user token shorter than ${MIN_TOKEN_LENGTH} characters or with spaces`, () => {
    expect(() => checkToken('short')).toThrow(/at least/);
    expect(() => checkToken('has a space in it, long enough')).toThrow(/printable/);
    expect(checkToken('a-long-enough-token')).toBe('a-long-enough-token');
  });
});
