import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  hashRecoveryCodes,
  isTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  RECOVERY_CODE_COUNT,
  recoveryCodesLeft,
  redeemRecoveryCode,
  totpStep,
  totpUri,
} from './two-factor-codes.js';

/** The code an authenticator app shows for `secret` at `ms`. */
function appCode(secret: string, ms: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ms });
}

const NOW = Date.UTC(2026, 10, 28, 20, 0, 10);

describe('TOTP codes', () => {
  it('accepts the app’s code of now and of the steps either side, naming the step it is for', () => {
    const secret = newTotpSecret();
    const step = Math.floor(NOW / 30_000);
    expect(totpStep(secret, appCode(secret, NOW), NOW)).toBe(step);
    expect(totpStep(secret, appCode(secret, NOW - 30_000), NOW)).toBe(step - 1);
    expect(totpStep(secret, appCode(secret, NOW + 30_000), NOW)).toBe(step + 1);
    // Typed with a space in the middle, as apps show it.
    const code = appCode(secret, NOW);
    expect(totpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, NOW)).toBe(step);
  });

  it('refuses a code of two steps away, another secret’s code, and anything but six digits', () => {
    const secret = newTotpSecret();
    expect(totpStep(secret, appCode(secret, NOW - 90_000), NOW)).toBeNull();
    expect(totpStep(secret, appCode(newTotpSecret(), NOW), NOW)).toBeNull();
    for (const wrong of ['', '12345', '1234567', 'abcdef', '12345a']) expect(totpStep(secret, wrong, NOW)).toBeNull();
  });

  it('makes a 160-bit secret and the otpauth URI apps read, issuer Quire and the account as label', () => {
    const secret = newTotpSecret();
    expect(Secret.fromBase32(secret).bytes.length).toBe(20);
    const uri = new URL(totpUri(secret, 'ada lovelace'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Quire:ada lovelace');
    expect(uri.searchParams.get('issuer')).toBe('Quire');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });

  it('tells a TOTP code from a recovery code', () => {
    expect(isTotpCode('123456')).toBe(true);
    expect(isTotpCode('123 456')).toBe(true);
    expect(isTotpCode('abcde-fghij')).toBe(false);
  });
});

describe('recovery codes', () => {
  it('are ten different codes, stored only as hashes', async () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const stored = await hashRecoveryCodes(codes);
    for (const code of codes) expect(stored).not.toContain(code.replace('-', ''));
    expect(recoveryCodesLeft(stored)).toBe(10);
  });

  it('each works once: using one leaves the other nine, and the used one no longer matches', async () => {
    const codes = newRecoveryCodes();
    const stored = await hashRecoveryCodes(codes);
    const after = await redeemRecoveryCode(stored, codes[3]);
    expect(after).not.toBeNull();
    expect(recoveryCodesLeft(after)).toBe(9);
    expect(await redeemRecoveryCode(after, codes[3])).toBeNull();
    // Typed in capitals and without the dash, another one still works.
    const next = await redeemRecoveryCode(after, codes[7].toUpperCase().replace('-', ''));
    expect(recoveryCodesLeft(next)).toBe(8);
  });

  it('a wrong code, another account’s code, or a damaged column matches nothing', async () => {
    const stored = await hashRecoveryCodes(newRecoveryCodes());
    expect(await redeemRecoveryCode(stored, newRecoveryCodes()[0])).toBeNull();
    expect(await redeemRecoveryCode(stored, 'short')).toBeNull();
    expect(await redeemRecoveryCode('not json', newRecoveryCodes()[0])).toBeNull();
    expect(await redeemRecoveryCode(null, newRecoveryCodes()[0])).toBeNull();
    expect(recoveryCodesLeft('not json')).toBe(0);
  });
});
