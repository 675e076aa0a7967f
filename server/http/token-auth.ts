import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors/app-error.js';
import type { Guard } from './request-guard.js';

/** Shortest token accepted from the user: long enough that guessing over the network is hopeless. */
export const MIN_TOKEN_LENGTH = 16;

/** A fresh API token: 32 random bytes, URL-safe. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Checks a user-given token; throws with a one-line reason. */
export function checkToken(token: string): string {
  if (token.length < MIN_TOKEN_LENGTH) throw new Error(`the token must be at least ${MIN_TOKEN_LENGTH} characters`);
  if (!/^[\x21-\x7e]+$/.test(token)) throw new Error('the token must be printable ASCII without spaces');
  return token;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether `given` equals `expected`, in time that does not depend on where they differ: both are
 * hashed first, so timingSafeEqual compares equal-length buffers and the length leaks nothing.
 */
export function tokensMatch(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Requires `Authorization: Bearer <token>` on every request it guards (the API; the editor's own
 * files stay public so the page can load and ask for the token). A missing or wrong token is a
 * 401 `unauthorized` with a `WWW-Authenticate` challenge.
 */
export function tokenAuth(token: string): Guard {
  return (req, res) => {
    const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
    if (match && tokensMatch(match[1], token)) return null;
    res.setHeader('WWW-Authenticate', 'Bearer realm="Quire"');
    return new AppError(
      'unauthorized',
      match
        ? 'The API token is wrong; send the token printed when Quire started'
        : 'This Quire server requires its API token: send Authorization: Bearer <token>',
    );
  };
}
