import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import {
  baseAccountName,
  numberedName,
  roleForClaims,
  type SingleSignOnError,
} from '../../common/single-sign-on-rules.js';
import type { AccountRepository, AccountRow } from '../db/repositories/account-repository.js';
import type { AccountService, SignedIn } from './account-service.js';
import type { SingleSignOnConfig } from './single-sign-on-config.js';

/** The password hash of an account that signs in only through the provider: no password matches it. */
export const NO_PASSWORD = '';

/** What a started sign-in keeps in the browser (an HttpOnly cookie) until the provider sends it back. */
export interface SignOnFlow {
  state: string;
  nonce: string;
  /** The PKCE code verifier: only its hash went to the provider. */
  verifier: string;
}

/** A sign-in through the provider that ends on the sign-in page: a code of SINGLE_SIGN_ON_ERRORS. */
export class SingleSignOnFailure extends Error {
  constructor(
    readonly code: SingleSignOnError,
    message: string,
    /** The account name concerned, when one is known (for the audit log). */
    readonly account: string | null = null,
  ) {
    super(message);
  }
}

/** One sign-in through the provider that ended, for the audit log. */
export interface SignOnOutcome {
  name: string | null;
  /** Null on success, else why it was refused. */
  refused: SingleSignOnError | null;
  /** Whether the account was made by this sign-in. */
  created: boolean;
}

const SCOPE = 'openid email profile';

/**
 * Sign-in through an OpenID Connect provider: the authorization code flow with PKCE, state and
 * nonce (openid-client). The provider's subject is bound to an account on its first sign-in, which
 * makes the account (with the role the rules give) or, for an account an admin invited (made with
 * no password), binds to it by name or e-mail address.
 */
export class SingleSignOnService {
  private configuration: Promise<client.Configuration> | null = null;

  readonly config: SingleSignOnConfig;
  private readonly accounts: AccountService;
  private readonly repository: AccountRepository;

  constructor(options: { config: SingleSignOnConfig; accounts: AccountService; repository: AccountRepository }) {
    this.config = options.config;
    this.accounts = options.accounts;
    this.repository = options.repository;
  }

  /** The provider's metadata, discovered once; a failure is forgotten so the next sign-in asks again. */
  private discover(): Promise<client.Configuration> {
    if (this.configuration === null) {
      const issuer = new URL(this.config.issuer);
      const auth =
        this.config.clientSecret === null ? client.None() : client.ClientSecretPost(this.config.clientSecret);
      // Plain http is accepted by the config only for a provider on this machine.
      const execute = issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [];
      this.configuration = client.discovery(issuer, this.config.clientId, undefined, auth, { execute });
      this.configuration.catch(() => {
        this.configuration = null;
      });
    }
    return this.configuration;
  }

  /** Starts a sign-in: the provider's authorization URL and what the browser keeps until the callback. */
  async start(redirectUri: string): Promise<{ url: URL; flow: SignOnFlow }> {
    const configuration = await this.discover().catch((error: unknown) => {
      throw unavailable(error);
    });
    const flow: SignOnFlow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url, flow };
  }

  /**
   * Ends a sign-in at the callback URL the provider sent the browser to: checks the state, trades
   * the code (with the PKCE verifier) for tokens, checks the ID token and its nonce, maps the claims
   * to a role and signs the account in. Throws SingleSignOnFailure.
   */
  async finish(callback: URL, flow: SignOnFlow | null, redirectUri: string): Promise<SignedIn & SignOnOutcome> {
    if (flow === null || callback.searchParams.get('state') !== flow.state) {
      throw new SingleSignOnFailure('sso_state_mismatch', 'The state sent back does not match a sign-in started here');
    }
    if (callback.searchParams.has('error')) {
      const said = callback.searchParams.get('error_description') ?? callback.searchParams.get('error');
      throw new SingleSignOnFailure('sso_provider_error', `The provider refused: ${said}`);
    }
    const configuration = await this.discover().catch((error: unknown) => {
      throw unavailable(error);
    });
    // The token request names the same redirect URI as the authorization request did.
    const current = new URL(redirectUri);
    current.search = callback.search;
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('The provider sent no ID token');
      claims = { ...idClaims };
      // Groups and e-mail are often only in the userinfo answer; the ID token's subject is checked against it.
      if (configuration.serverMetadata().userinfo_endpoint) {
        const info = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
        claims = { ...info, ...idClaims };
      }
    } catch (error) {
      throw unavailable(error);
    }
    const issuer = configuration.serverMetadata().issuer;
    return this.signIn(issuer, claims);
  }

  /** Signs in the person the claims describe (their subject at `issuer`), or refuses. */
  private async signIn(issuer: string, claims: Record<string, unknown>): Promise<SignedIn & SignOnOutcome> {
    const subject = String(claims.sub);
    const wanted = baseAccountName(claims);
    const role = roleForClaims(this.config.roles, claims);
    if (role === null) {
      throw new SingleSignOnFailure('sso_not_mapped', `No --oidc-role rule matches the claims of ${wanted}`, wanted);
    }
    const { account, created } = await this.repository.exclusively(async (accounts) => {
      const bound = await accounts.findAccountByIdentity(issuer, subject);
      if (bound) return { account: bound, created: false };
      const invited = await this.invitedAccount(accounts, issuer, claims);
      if (invited) {
        await accounts.insertIdentity(identity(issuer, subject, invited.id));
        return { account: invited, created: false };
      }
      if (this.config.invitedOnly) {
        throw new SingleSignOnFailure(
          'sso_not_invited',
          `${wanted} has not been invited (--oidc-invited-only)`,
          wanted,
        );
      }
      const row = await this.newAccount(accounts, wanted, role);
      await accounts.insertAccount(row);
      await accounts.insertIdentity(identity(issuer, subject, row.id));
      return { account: row, created: true };
    });
    if (account.disabled !== 0) {
      throw new SingleSignOnFailure('sso_account_disabled', `${account.name} is disabled`, account.name);
    }
    const session = await this.accounts.startSession(account);
    return { ...session, name: account.name, refused: null, created };
  }

  /**
   * The account an admin invited for this person: made with no password, not yet bound to this
   * provider, and named as the provider names them (preferred_username or e-mail address). An
   * account with a password is never taken over by a name at the provider.
   */
  private async invitedAccount(
    accounts: AccountRepository,
    issuer: string,
    claims: Record<string, unknown>,
  ): Promise<AccountRow | undefined> {
    const names = [claims.preferred_username, claims.email].filter((name): name is string => typeof name === 'string');
    for (const name of names) {
      const account = await accounts.findAccount(name);
      if (account && account.password_hash === NO_PASSWORD && !(await accounts.hasIdentity(account.id, issuer))) {
        return account;
      }
    }
    return undefined;
  }

  /** A new account's row: the wanted name, or the first of `name-2`, `name-3`... no account or token holds. */
  private async newAccount(accounts: AccountRepository, wanted: string, role: string): Promise<AccountRow> {
    let name = wanted;
    for (let n = 2; (await accounts.findAccount(name)) || (await accounts.activeTokenNamed(name)); n++) {
      name = numberedName(wanted, n);
    }
    const now = new Date().toISOString();
    return {
      id: randomUUID(),
      name,
      role,
      content_types: null,
      password_hash: NO_PASSWORD,
      disabled: 0,
      created_at: now,
      updated_at: now,
    };
  }
}

function identity(issuer: string, subject: string, accountId: string) {
  return { id: randomUUID(), issuer, subject, account_id: accountId, created_at: new Date().toISOString() };
}

/** The provider could not be reached or answered wrongly: the reason is logged, the person told in a sentence. */
function unavailable(error: unknown): SingleSignOnFailure {
  const reason = error instanceof Error ? error.message : String(error);
  return new SingleSignOnFailure('sso_unavailable', `The identity provider failed: ${reason}`);
}
