/**
 * Single sign-on's pure rules: the role rules that map an OpenID Connect provider's claims to a
 * Quire role, the account name a new sign-in gets, and the sign-in page's messages for each way a
 * sign-in through the provider can fail. Shared by the server and the editor; no Node or DOM.
 */

import { isRole } from './access-rules.js';
import type { Role } from './api-contract.js';

/** `GET /api/auth/providers`: how this server lets people sign in (public, asked by the sign-in page). */
export interface AuthProvidersResponse {
  /** Whether `POST /api/auth/sign-in` takes a name and password (off with `--no-password-sign-in`). */
  password: boolean;
  /** The OpenID Connect provider, when one is configured: its name and where its sign-in starts. */
  single_sign_on: { name: string; start_url: string } | null;
}

/** One role rule: `ROLE:*` (anyone the provider signs in) or `ROLE:CLAIM=VALUE`. */
export interface RoleRule {
  role: Role;
  /** A claim name (a dotted path reaches into objects: `realm_access.roles`), `email_domain`, or null for any. */
  claim: string | null;
  value: string;
}

/** Claim names as providers spell them: letters, digits, `_`, `-`, `:`, `/`, dots between parts. */
const CLAIM = /^[A-Za-z0-9_:/-]+(\.[A-Za-z0-9_:/-]+)*$/;

/**
 * Parses one `--oidc-role` rule: `ROLE:*`, or `ROLE:CLAIM=VALUE` where the claim (a string, a
 * number, a boolean or a list of them) must equal or contain VALUE; `email_domain=example.com`
 * matches a verified e-mail address at that domain. Throws an Error saying what is wrong.
 */
export function parseRoleRule(text: string): RoleRule {
  const colon = text.indexOf(':');
  const role = colon < 0 ? text : text.slice(0, colon);
  if (!isRole(role)) {
    throw new Error(
      `${JSON.stringify(text)} starts with no role: write ROLE:CLAIM=VALUE or ROLE:* (admin, editor, author or viewer)`,
    );
  }
  const condition = text.slice(colon + 1);
  if (condition === '*') return { role, claim: null, value: '' };
  const equals = condition.indexOf('=');
  const claim = equals < 0 ? '' : condition.slice(0, equals);
  const value = equals < 0 ? '' : condition.slice(equals + 1);
  if (colon < 0 || !CLAIM.test(claim) || value === '') {
    throw new Error(
      `${JSON.stringify(text)} is not ROLE:CLAIM=VALUE or ROLE:* (for example admin:groups=quire-admins)`,
    );
  }
  return { role, claim, value };
}

/** A claim's value at a dotted path, or undefined. */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  // A provider may name a claim with dots itself (a URL-like name): that one wins.
  if (path in claims) return claims[path];
  let here: unknown = claims;
  for (const part of path.split('.')) {
    if (here === null || typeof here !== 'object' || Array.isArray(here)) return undefined;
    here = (here as Record<string, unknown>)[part];
  }
  return here;
}

/** Whether a claim's value is, or (a list) holds, `value`. */
function holds(found: unknown, value: string): boolean {
  if (Array.isArray(found)) return found.some((item) => holds(item, value));
  return (
    (typeof found === 'string' || typeof found === 'number' || typeof found === 'boolean') && String(found) === value
  );
}

/** The domain of the claims' e-mail address, lower-cased, when the provider has not said it is unverified. */
function verifiedEmailDomain(claims: Record<string, unknown>): string | null {
  const email = claims.email;
  // Some providers (Entra ID) never send email_verified; one that says false is believed.
  if (typeof email !== 'string' || claims.email_verified === false || claims.email_verified === 'false') return null;
  const at = email.lastIndexOf('@');
  return at > 0 ? email.slice(at + 1).toLowerCase() : null;
}

/** Whether one rule matches the claims. */
export function ruleMatches(rule: RoleRule, claims: Record<string, unknown>): boolean {
  if (rule.claim === null) return true;
  if (rule.claim === 'email_domain') return verifiedEmailDomain(claims) === rule.value.toLowerCase();
  return holds(claimAt(claims, rule.claim), rule.value);
}

/** The role of the first rule the claims match, or null: nothing matching is refused. */
export function roleForClaims(rules: readonly RoleRule[], claims: Record<string, unknown>): Role | null {
  return rules.find((rule) => ruleMatches(rule, claims))?.role ?? null;
}

/** The name a new account starts from: `preferred_username`, else the e-mail address, else `user`, made valid. */
export function baseAccountName(claims: Record<string, unknown>): string {
  const wanted = [claims.preferred_username, claims.email].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  const valid = (wanted ?? '')
    .trim()
    .replace(/[^A-Za-z0-9._@-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return valid === '' ? 'user' : valid;
}

/** The `n`th candidate for a taken name (2, 3, ...): `name-2`, shortened to stay within 64 characters. */
export function numberedName(base: string, n: number): string {
  const suffix = `-${n}`;
  return `${base.slice(0, 64 - suffix.length)}${suffix}`;
}

/** Why a sign-in through the provider ended on the sign-in page: the `sso_error` the callback sends there. */
export const SINGLE_SIGN_ON_ERRORS = {
  sso_state_mismatch:
    'The sign-in could not be matched to one started here (it was too old, started in another browser, or tampered with). Try again.',
  sso_provider_error: 'The identity provider did not sign you in (refused or cancelled). Try again, or ask an admin.',
  sso_not_mapped:
    'Your identity provider account is not allowed into this Quire: ask an admin to give your group a role.',
  sso_not_invited: 'This Quire signs in only people an admin has invited: ask an admin for an account.',
  sso_account_disabled: 'Your Quire account is disabled: ask an admin.',
  sso_unavailable: 'The identity provider could not be reached or answered wrongly. Try again later, or ask an admin.',
} as const;

/** A code of SINGLE_SIGN_ON_ERRORS. */
export type SingleSignOnError = keyof typeof SINGLE_SIGN_ON_ERRORS;

/** The sign-in page's sentence for an `sso_error` (any other text gets the general one, never shown as it is). */
export function singleSignOnMessage(code: string | null): string | null {
  if (code === null) return null;
  return Object.hasOwn(SINGLE_SIGN_ON_ERRORS, code)
    ? SINGLE_SIGN_ON_ERRORS[code as SingleSignOnError]
    : SINGLE_SIGN_ON_ERRORS.sso_provider_error;
}
