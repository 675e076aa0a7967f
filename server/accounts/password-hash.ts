import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with Node's scrypt (memory-hard; RFC 7914). A stored hash names its parameters
 * (`scrypt$N$r$p$salt$hash`, base64url), so they can be raised later: old hashes still verify with
 * the parameters they were made with, and `needsRehash` says when to store a new one.
 */

/** Today's parameters: N = 2^15, r = 8, p = 1 (32 MiB and ~100 ms per hash), a 16-byte salt, a 32-byte key. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;

const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** Largest N a stored hash may name, so a tampered row cannot make a sign-in allocate gigabytes. */
const MAX_N = 2 ** 20;

/** scrypt needs 128 * N * r bytes; Node's default limit (32 MiB) is just too small for N = 2^15. */
function maxmemFor(N: number, r: number): number {
  return 128 * N * r + 4 * 1024 * 1024;
}

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: maxmemFor(N, r) };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A new hash of `password` with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT_PARAMS;
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, N, r, p);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const key = Buffer.from(parts[5], 'base64url');
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || !Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16)
    return null;
  if (salt.length < 8 || key.length !== KEY_BYTES) return null;
  return { N, r, p, salt, key };
}

/** Whether `password` matches `stored`, compared in constant time. A malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.N, parsed.r, parsed.p);
  return timingSafeEqual(key, parsed.key);
}

/** Whether `stored` was made with weaker parameters than today's (store a new hash at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  return parsed.N < SCRYPT_PARAMS.N || parsed.r < SCRYPT_PARAMS.r || parsed.p < SCRYPT_PARAMS.p;
}

/**
 * A hash of no one's password, verified when the name is unknown or disabled, so a wrong name
 * takes as long to refuse as a wrong password (names are not revealed by timing).
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('base64url'));
  return decoy;
}
