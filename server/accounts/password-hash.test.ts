import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, SCRYPT_PARAMS, verifyPassword } from './password-hash.js';

describe('password hashes', () => {
  it('are scrypt with today’s parameters and a fresh salt, and verify only the right password', async () => {
    const one = await hashPassword('correct horse battery');
    const two = await hashPassword('correct horse battery');
    expect(one).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(one).not.toBe(two); // per-password salt
    expect(one).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', one)).toBe(true);
    expect(await verifyPassword('correct horse batterY', one)).toBe(false);
    expect(await verifyPassword('', one)).toBe(false);
    expect(needsRehash(one)).toBe(false);
  });

  it('verify hashes made with older, weaker parameters, and say they need rehashing', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('an old password', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const old = ['scrypt', 2 ** 14, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    expect(await verifyPassword('an old password', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(SCRYPT_PARAMS.N).toBeGreaterThanOrEqual(2 ** 15);
  });

  it('match nothing when the stored hash is malformed or asks for absurd memory', async () => {
    const good = await hashPassword('correct horse battery');
    const parts = good.split('$');
    for (const bad of [
      '',
      'plain text',
      ['scrypt', 2 ** 30, 8, 1, parts[4], parts[5]].join('$'), // a gigabyte-sized N
      ['scrypt', 1000, 8, 1, parts[4], parts[5]].join('$'), // not a power of two
      ['argon2', ...parts.slice(1)].join('$'),
      [...parts.slice(0, 5), 'c2hvcnQ'].join('$'), // a cut key
    ]) {
      expect(await verifyPassword('correct horse battery', bad)).toBe(false);
    }
  });
});
