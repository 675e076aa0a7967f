import { describe, expect, it } from 'vitest';
import { securityFor } from './localhost-guards.js';

describe('securityFor (what a listen address requires)', () => {
  it('needs no token on loopback and accepts only loopback hosts besides the allowed ones', () => {
    expect(securityFor('127.0.0.1', {})).toEqual({
      allowedHosts: [],
      corsOrigins: [],
      token: null,
      loopbackOnly: true,
    });
    expect(securityFor('localhost', { allowedHosts: ['Quire.Example'] }).allowedHosts).toEqual(['quire.example']);
  });

  it('uses a token given on loopback', () => {
    expect(securityFor('127.0.0.1', { token: 'given-token-0123456789' }).token).toBe('given-token-0123456789');
  });

  it('generates a token when listening beyond loopback without one', () => {
    const first = securityFor('0.0.0.0', {});
    const second = securityFor('0.0.0.0', {});
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.token).not.toBe(second.token);
    // No first-run form where other machines could reach it.
    expect(first.loopbackOnly).toBe(false);
  });

  it('keeps the given token beyond loopback, and accepts the address it listens on as Host', () => {
    const security = securityFor('192.168.1.20', { token: 'given-token-0123456789' });
    expect(security.token).toBe('given-token-0123456789');
    expect(security.allowedHosts).toEqual(['192.168.1.20']);
  });

  it('refuses an allowed host that is not a host name', () => {
    expect(() => securityFor('127.0.0.1', { allowedHosts: ['http://x'] })).toThrow(/not a host name/);
  });
});
