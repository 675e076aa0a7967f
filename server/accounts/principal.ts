import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '../../common/api-contract.js';

/** Who a request comes from, once its credential has been checked. */
export interface Principal {
  /** A session cookie, an API token (or the run's `--token`), or `local`: no accounts, no sign-in needed. */
  via: 'session' | 'token' | 'local';
  /** Recorded in created_by/updated_by: the account's or token's name (`--editor` for local and the run token). */
  name: string | null;
  role: Role;
  /** Content types (tables or slugs) it is limited to, or null for all. */
  types: string[] | null;
  /** For a session: the hash of its cookie, so sign-out can end it. */
  sessionId?: string;
  /** For a session: `--require-2fa` names its role and it has no second factor yet, so it may only enrol. */
  twoFactorEnrolmentRequired?: boolean;
}

/** A fresh secret for a session cookie or an API token: 32 random bytes, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is stored for a secret: its SHA-256, hex. Secrets are 256 random bits, so a fast hash is
 * enough (no one can guess back from it), and a lookup by hash compares hashes, never the secret
 * itself, so the time it takes does not depend on how much of a guessed token is right.
 */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A content-type limit as stored (JSON text or null) read back; anything unreadable limits to nothing. */
export function parseTypeLimit(stored: string | null): string[] | null {
  if (stored === null) return null;
  try {
    const value: unknown = JSON.parse(stored);
    if (Array.isArray(value) && value.every((name) => typeof name === 'string')) return value;
  } catch {
    // falls through: a damaged limit must not widen into "all types"
  }
  return [];
}
