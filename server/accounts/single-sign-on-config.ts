import { parseRoleRule, type RoleRule } from '../../common/single-sign-on-rules.js';

/** How this server signs people in through an OpenID Connect provider. */
export interface SingleSignOnConfig {
  /** The provider's issuer URL; its discovery document is at `/.well-known/openid-configuration` under it. */
  issuer: string;
  clientId: string;
  /** The client secret (QUIRE_OIDC_CLIENT_SECRET), or null for a public client (PKCE alone). */
  clientSecret: string | null;
  /** The first rule the provider's claims match gives the role; nothing matching is refused. */
  roles: RoleRule[];
  /** Shown on the sign-in button: "Sign in with <name>". */
  name: string;
  /** Only accounts an admin made first (`quire user add NAME --sso`) sign in; no account is made. */
  invitedOnly: boolean;
}

/** The raw flags and variables single sign-on is configured by. */
export interface SingleSignOnFlags {
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  /** `--oidc-role`, repeatable; QUIRE_OIDC_ROLES holds them separated by `;` or new lines. */
  roles?: string[];
  name?: string;
  invitedOnly?: boolean;
}

/** Whether a URL's host is this machine (plain http is accepted only there, as in tests and a local provider). */
function loopbackUrl(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname);
}

/**
 * Checks the single sign-on flags: null when no issuer is given (then no other flag may be), else
 * the config. Throws an Error with a one-line explanation (the CLI adds the flag's name).
 */
export function parseSingleSignOn(flags: SingleSignOnFlags): SingleSignOnConfig | null {
  if (flags.issuer === undefined) {
    const stray = flags.clientId !== undefined || (flags.roles ?? []).length > 0 || flags.invitedOnly;
    if (stray) throw new Error('--oidc-client-id, --oidc-role and --oidc-invited-only need --oidc-issuer URL');
    return null;
  }
  let issuer: URL;
  try {
    issuer = new URL(flags.issuer);
  } catch {
    throw new Error(`--oidc-issuer ${JSON.stringify(flags.issuer)} is not a URL (https://id.example.com/realms/team)`);
  }
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && loopbackUrl(issuer))) {
    throw new Error(`--oidc-issuer must be an https:// URL (plain http only on this machine): ${flags.issuer}`);
  }
  if (!flags.clientId) throw new Error('--oidc-issuer needs --oidc-client-id (or QUIRE_OIDC_CLIENT_ID)');
  const roles = (flags.roles ?? []).map((rule) => {
    try {
      return parseRoleRule(rule.trim());
    } catch (error) {
      throw new Error(`--oidc-role ${(error as Error).message}`);
    }
  });
  if (roles.length === 0) {
    throw new Error('--oidc-issuer needs at least one --oidc-role (for example editor:email_domain=example.com)');
  }
  return {
    issuer: flags.issuer,
    clientId: flags.clientId,
    clientSecret: flags.clientSecret || null,
    roles,
    name: flags.name?.trim() || issuer.hostname,
    invitedOnly: flags.invitedOnly ?? false,
  };
}

/** QUIRE_OIDC_ROLES's rules: separated by `;` or new lines (a value may hold spaces and commas). */
export function rolesFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[;\n]/)
    .map((rule) => rule.trim())
    .filter((rule) => rule !== '');
}

/** The `quire serve` flags of sign-in: single sign-on, password sign-in and the public URL. */
export interface SignInServeFlags {
  'oidc-issuer'?: string;
  'oidc-client-id'?: string;
  'oidc-role'?: string[];
  'oidc-name'?: string;
  'oidc-invited-only'?: boolean;
  'no-password-sign-in'?: boolean;
  'public-url'?: string;
}

/** How people sign in to a served site: what `quire serve` passes on to the server. */
export interface SignInChoices {
  singleSignOn: SingleSignOnConfig | null;
  passwordSignIn: boolean;
  /** The origin browsers reach the server at (`--public-url`), or null: the request's own. */
  publicUrl: string | null;
}

/**
 * Reads the sign-in flags and their variables (QUIRE_OIDC_ISSUER, QUIRE_OIDC_CLIENT_ID,
 * QUIRE_OIDC_ROLES, QUIRE_OIDC_NAME, QUIRE_PUBLIC_URL); the client secret comes only from
 * QUIRE_OIDC_CLIENT_SECRET, since flags show in the process list. Throws an Error in one line.
 */
export function signInChoices(flags: SignInServeFlags, fromEnv: (name: string) => string | undefined): SignInChoices {
  const singleSignOn = parseSingleSignOn({
    issuer: flags['oidc-issuer'] ?? fromEnv('QUIRE_OIDC_ISSUER'),
    clientId: flags['oidc-client-id'] ?? fromEnv('QUIRE_OIDC_CLIENT_ID'),
    clientSecret: fromEnv('QUIRE_OIDC_CLIENT_SECRET'),
    roles: flags['oidc-role'] ?? rolesFromEnv(fromEnv('QUIRE_OIDC_ROLES')),
    name: flags['oidc-name'] ?? fromEnv('QUIRE_OIDC_NAME'),
    invitedOnly: flags['oidc-invited-only'],
  });
  const given = flags['public-url'] ?? fromEnv('QUIRE_PUBLIC_URL');
  let publicUrl: string | null = null;
  if (given !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(given);
    } catch {
      // Said below.
    }
    const originOnly = url && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
    if (!url || !/^https?:$/.test(url.protocol) || !originOnly || url.username || url.password) {
      throw new Error(`--public-url ${JSON.stringify(given)} must be an origin only, like https://cms.example.org`);
    }
    publicUrl = url.origin;
  }
  return { singleSignOn, passwordSignIn: !flags['no-password-sign-in'], publicUrl };
}
