import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * The codes of two-factor sign-in: TOTP (RFC 6238: SHA-1, six digits, 30-second steps, as every
 * authenticator app reads an `otpauth://` URI) through the `otpauth` library, and the recovery
 * codes that stand in for a lost authenticator.
 */

/** The name authenticator apps show above the account's. */
export const TOTP_ISSUER = 'Quire';
const PERIOD = 30;
const DIGITS = 6;
/** Steps either side of now a code is accepted from: a phone's clock a little off still signs in. */
const WINDOW = 1;

/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;
/** Base32's letters and digits: no 0/1/8/9 to mistake for O/I/B/g; ten of them hold 50 random bits. */
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const RECOVERY_LENGTH = 10;

/** A new TOTP secret: 160 random bits (RFC 4226's recommended length), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, account = ''): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: account,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** The `otpauth://totp/Quire:NAME?...` URI an authenticator app reads (from a QR code or pasted). */
export function totpUri(secret: string, account: string): string {
  return totp(secret, account).toString();
}

/** Whether `code` looks like a TOTP code (six digits, spaces allowed) rather than a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ''));
}

/**
 * The time step `code` is right for at `nowMs` (within a step either side), or null. The caller
 * accepts it only if no code of this or a later step was accepted before (no replay).
 */
export function totpStep(secret: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secret).validate({ token, timestamp: nowMs, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: nowMs }) + delta;
}

/** Ten new recovery codes, `abcde-fghij`, to be shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** A recovery code as typed, without spaces or dashes and lower-cased. */
function normalizedRecoveryCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toLowerCase();
}

/** The stored form: one random salt per account, and each code's scrypt hash with it. */
interface StoredRecoveryCodes {
  salt: string;
  hashes: string[];
}

/**
 * scrypt with a lighter cost than passwords': a recovery code is 50 random bits (not a person's
 * choice), and one guess hashes it once however many codes remain.
 */
const RECOVERY_SCRYPT = { N: 2 ** 14, r: 8, p: 1, maxmem: 32 * 1024 * 1024 };

function derive(code: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(normalizedRecoveryCode(code), salt, 32, RECOVERY_SCRYPT, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** The stored text of `codes`' hashes (JSON). */
export async function hashRecoveryCodes(codes: readonly string[]): Promise<string> {
  const salt = randomBytes(16);
  const hashes = await Promise.all(codes.map(async (code) => (await derive(code, salt)).toString('base64url')));
  const stored: StoredRecoveryCodes = { salt: salt.toString('base64url'), hashes };
  return JSON.stringify(stored);
}

function parseStored(stored: string | null): StoredRecoveryCodes | null {
  if (stored === null) return null;
  try {
    const value = JSON.parse(stored) as StoredRecoveryCodes;
    if (typeof value?.salt === 'string' && Array.isArray(value.hashes)) return value;
  } catch {
    // a damaged column matches no code
  }
  return null;
}

/** How many unused recovery codes `stored` holds. */
export function recoveryCodesLeft(stored: string | null): number {
  return parseStored(stored)?.hashes.length ?? 0;
}

/**
 * Whether `code` is one of the stored recovery codes: the stored text without it (to swap in, so
 * it is used once), or null. Every stored hash is compared, in constant time each.
 */
export async function redeemRecoveryCode(stored: string | null, code: string): Promise<string | null> {
  const parsed = parseStored(stored);
  if (!parsed || normalizedRecoveryCode(code).length !== RECOVERY_LENGTH) return null;
  const key = await derive(code, Buffer.from(parsed.salt, 'base64url'));
  let found = -1;
  parsed.hashes.forEach((hash, index) => {
    const candidate = Buffer.from(hash, 'base64url');
    if (candidate.length === key.length && timingSafeEqual(candidate, key) && found === -1) found = index;
  });
  if (found === -1) return null;
  const rest: StoredRecoveryCodes = { salt: parsed.salt, hashes: parsed.hashes.filter((_, index) => index !== found) };
  return JSON.stringify(rest);
}
