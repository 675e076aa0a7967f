import { randomUUID } from 'node:crypto';
import { isRole, nameProblem } from '../../common/access-rules.js';
import type { AccountCreatedResponse, AccountSummary, Role } from '../../common/api-contract.js';
import { type EditorLanguage, isEditorLanguage } from '../../common/editor-language-rules.js';
import type { AccountRepository, AccountRow } from '../db/repositories/account-repository.js';
import { AppError } from '../errors/app-error.js';
import { checkLanguage, checkName, checkPassword, checkRole, checkTypeLimit } from './account-input.js';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './password-hash.js';
import { newSecret, type Principal, parseTypeLimit, secretHash } from './principal.js';
import { NO_PASSWORD } from './single-sign-on-service.js';
import { mustEnrol, type TwoFactorRequirement } from './two-factor-service.js';

/** How long a session lasts without use, unless told otherwise (QUIRE_SESSION_HOURS or the option). */
export const DEFAULT_SESSION_IDLE_MS = 12 * 60 * 60_000;

/** A session's expiry is pushed forward at most this often (not a write on every request), or a tenth of the idle time. */
const TOUCH_EVERY_MS = 60_000;

/**
 * How long "no accounts" is believed before asking the database again: `quire user add` in
 * another process is noticed within this time, without a query on every request of a single
 * user's laptop. Once accounts exist that is remembered for good.
 */
const NO_ACCOUNTS_RECHECK_MS = 1_000;

/** A new account's details. */
export interface NewAccount {
  name: unknown;
  role: unknown;
  password: unknown;
  content_types?: unknown;
  /** Invited to sign in through the identity provider only: no password (`password` is not read). */
  sso?: boolean;
}

/** Changes to an account; absent members stay. */
export interface AccountChanges {
  role?: Role;
  password?: string;
  disabled?: boolean;
  /** A list, or text separated by commas (checked here), or null for all types. */
  content_types?: unknown;
}

/** A signed-in session: the cookie's value (sent once, stored only as a hash) and the account. */
export interface SignedIn {
  cookie: string;
  principal: Principal;
  expiresAt: string;
}

/** A right password of an account with two-factor sign-in: no session yet, a one-time challenge waiting for its code. */
export interface SecondFactorPending {
  /** The challenge cookie's value (sent once, stored only as a hash). */
  challenge: string;
  name: string;
}

/** Where AccountService keeps accounts, and how their sessions and second factors go. */
export interface AccountServiceOptions {
  repository: AccountRepository;
  /** How long a session lasts without use (QuireConfig.sessionIdleMs; default DEFAULT_SESSION_IDLE_MS). */
  sessionIdleMs?: number;
  now?: () => number;
  /** Who must enrol in two-factor sign-in (`--require-2fa`): their sessions may only enrol until they do. */
  requireTwoFactor?: TwoFactorRequirement;
  /** Starts the second step of an account with two-factor sign-in (see TwoFactorService). */
  secondFactor?: { startChallenge(accountId: string): Promise<string> };
}

/** Accounts, their passwords and their sign-in sessions. */
export class AccountService {
  private accountsKnown = false;
  private noAccountsCheckedAt = Number.NEGATIVE_INFINITY;

  private readonly repository: AccountRepository;
  private readonly options: Omit<AccountServiceOptions, 'repository'>;

  constructor(options: AccountServiceOptions) {
    const { repository, ...rest } = options;
    this.repository = repository;
    this.options = rest;
  }

  private get idleMs(): number {
    return this.options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }

  /** Whether any account exists (cached: see NO_ACCOUNTS_RECHECK_MS). */
  async accountsExist(): Promise<boolean> {
    if (this.accountsKnown) return true;
    const now = this.now();
    if (now - this.noAccountsCheckedAt < NO_ACCOUNTS_RECHECK_MS) return false;
    this.accountsKnown = await this.repository.anyAccount();
    this.noAccountsCheckedAt = now;
    return this.accountsKnown;
  }

  /** The cached answer when there is one: lets a request with nothing to check pass without waiting. */
  accountsExistCached(): boolean | undefined {
    if (this.accountsKnown) return true;
    return this.now() - this.noAccountsCheckedAt < NO_ACCOUNTS_RECHECK_MS ? false : undefined;
  }

  async list(): Promise<AccountSummary[]> {
    return (await this.repository.listAccounts()).map(summaryOf);
  }

  /** One account, or a 404. */
  async get(name: string): Promise<AccountSummary> {
    return summaryOf(await this.require(name));
  }

  /**
   * Adds an account; a taken name is a 409. Rows that already name it as their author (made under
   * the editor name) become its own, which the answer says rather than leaving it to be found out.
   */
  async add(input: NewAccount): Promise<AccountCreatedResponse> {
    const row = await this.newRow(input);
    if (await this.repository.findAccount(row.name)) throw taken(row.name);
    // created_by holds either kind of name: a person must not take over a token's rows (or the reverse).
    if (await this.repository.activeTokenNamed(row.name)) {
      throw new AppError('conflict', `${JSON.stringify(row.name)} is an API token's name; pick another`);
    }
    try {
      await this.repository.insertAccount(row);
    } catch (error) {
      // Two adds of one name at once: the unique index decides.
      if (await this.repository.findAccount(row.name)) throw taken(row.name);
      throw error;
    }
    this.accountsKnown = true;
    return this.createdAnswer(row);
  }

  /** A new account's summary, saying how many rows already name it as author (made under the editor name). */
  private async createdAnswer(row: AccountRow): Promise<AccountCreatedResponse> {
    const inherited = await this.repository.rowsAuthoredBy(row.name);
    if (inherited === 0) return summaryOf(row);
    return { ...summaryOf(row), inherited_rows: inherited, notice: inheritedNotice(row.name, inherited) };
  }

  /**
   * The first admin, only while no account exists (a 409 afterwards). Rows made before it under
   * the editor name become its own when it takes that name, which the answer says (as `add`'s does).
   */
  async addFirst(input: { name: unknown; password: unknown }): Promise<AccountCreatedResponse> {
    const row = await this.newRow({ ...input, role: 'admin' });
    if (!(await this.repository.exclusively((accounts) => accounts.insertFirstAccount(row)))) {
      this.accountsKnown = true;
      throw new AppError('conflict', 'An account already exists: sign in, or ask an admin for an account');
    }
    this.accountsKnown = true;
    return this.createdAnswer(row);
  }

  private async newRow(input: NewAccount): Promise<AccountRow> {
    const name = checkName(input.name);
    const role = checkRole(input.role);
    const password = input.sso ? null : checkPassword(input.password);
    const types = checkTypeLimit(input.content_types);
    const now = this.iso();
    return {
      id: randomUUID(),
      name,
      role,
      content_types: types === null ? null : JSON.stringify(types),
      password_hash: password === null ? NO_PASSWORD : await hashPassword(password),
      disabled: 0,
      created_at: now,
      updated_at: now,
    };
  }

  /**
   * Changes an account. A new password or disabling ends its sessions (a reset password must lock
   * out whoever knew the old one); a changed role applies to its next request.
   */
  async change(name: string, changes: AccountChanges): Promise<AccountSummary> {
    await this.require(name);
    const update: Parameters<AccountRepository['updateAccount']>[1] = { updated_at: this.iso() };
    if (changes.role !== undefined) update.role = checkRole(changes.role);
    if (changes.content_types !== undefined) {
      const types = checkTypeLimit(changes.content_types);
      update.content_types = types === null ? null : JSON.stringify(types);
    }
    if (changes.password !== undefined) update.password_hash = await hashPassword(checkPassword(changes.password));
    if (changes.disabled !== undefined) update.disabled = changes.disabled ? 1 : 0;
    // The check and the change in one exclusive transaction: two admins demoting each other at once
    // would otherwise each see the other remain.
    const account = await this.repository.exclusively(async (accounts) => {
      const current = await accounts.findAccount(name);
      if (!current) throw new AppError('not_found', `There is no account named ${JSON.stringify(name)}`);
      // The site must keep someone who can manage it: the last enabled admin stays one.
      const demoted = changes.role !== undefined && changes.role !== 'admin';
      if (current.role === 'admin' && current.disabled === 0 && (demoted || changes.disabled === true)) {
        if ((await accounts.enabledAdmins()) <= 1) {
          throw new AppError('conflict', `${name} is the only admin: make another account admin first`);
        }
      }
      await accounts.updateAccount(name, update);
      if (changes.password !== undefined || changes.disabled === true) await accounts.deleteSessionsOf(current.id);
      return current;
    });
    return summaryOf({ ...account, ...update });
  }

  /** The editor language an account chose, or null (none chosen, no such account, or one no longer offered). */
  async languageOf(name: string): Promise<EditorLanguage | null> {
    const language = (await this.repository.findAccount(name))?.language;
    return isEditorLanguage(language) ? language : null;
  }

  /** Sets the editor language an account chose (null: follow the browser); an unknown language is a 400 naming the choices. */
  async setLanguage(name: string, value: unknown): Promise<EditorLanguage | null> {
    const language = checkLanguage(value);
    if (!(await this.repository.updateAccount(name, { language, updated_at: this.iso() }))) {
      throw new AppError('not_found', `There is no account named ${JSON.stringify(name)}`);
    }
    return language;
  }

  /** The account named `name`, or a 404. */
  async require(name: string): Promise<AccountRow> {
    const account = await this.repository.findAccount(name);
    if (!account) throw new AppError('not_found', `There is no account named ${JSON.stringify(name)}`);
    return account;
  }

  /**
   * Checks a name and password; a new session when they match an enabled account (or, with
   * two-factor sign-in, a challenge for the second step), else null. A wrong name, a disabled
   * account and a wrong password take the same time and give the same answer.
   */
  async signIn(name: unknown, password: unknown): Promise<SignedIn | SecondFactorPending | null> {
    const account = await this.checkPassword(name, password);
    if (!account) return null;
    if (account.totp_secret && this.options.secondFactor) {
      return { challenge: await this.options.secondFactor.startChallenge(account.id), name: account.name };
    }
    return this.startSession(account);
  }

  /**
   * The enabled account whose name and password these are, or null, without starting a session
   * (an account with two-factor sign-in has a second step first). Takes the same time either way.
   */
  async checkPassword(name: unknown, password: unknown): Promise<AccountRow | null> {
    const given = typeof password === 'string' && password.length <= 1024 ? password : '';
    // Only a well-formed name is looked up: no account has another, and PostgreSQL cannot even compare a NUL.
    const account = nameProblem(name) === null ? await this.repository.findAccount(name as string) : undefined;
    // An account without a password (single sign-on only) is checked against the decoy, as a wrong name is.
    const usable = account !== undefined && account.disabled === 0 && account.password_hash !== NO_PASSWORD;
    const matches = await verifyPassword(given, usable ? account.password_hash : await decoyHash());
    if (!usable || !matches) return null;
    if (needsRehash(account.password_hash)) {
      await this.repository.updateAccount(account.name, { password_hash: await hashPassword(given) });
    }
    return account;
  }

  /** A new session for an account (after sign-in or first run). */
  async startSession(
    account: Pick<AccountRow, 'id' | 'name' | 'role' | 'content_types' | 'totp_secret'>,
  ): Promise<SignedIn> {
    const cookie = newSecret();
    const now = this.now();
    const expiresAt = this.iso(now + this.idleMs);
    await this.repository.insertSession({
      id: secretHash(cookie),
      account_id: account.id,
      created_at: this.iso(now),
      last_seen_at: this.iso(now),
      expires_at: expiresAt,
    });
    // Now and then, forget sessions that ran out (a sign-in is rare enough to carry the cost).
    await this.repository.deleteExpiredSessions(this.iso(now));
    return { cookie, principal: this.principalOf(account, secretHash(cookie)), expiresAt };
  }

  /** Starts a session for the account `name` (just created by first run). */
  async startSessionFor(name: string): Promise<SignedIn> {
    return this.startSession(await this.require(name));
  }

  /** Who a session cookie belongs to, or null when it is unknown, expired, or its account disabled. */
  async session(cookie: string): Promise<Principal | null> {
    const id = secretHash(cookie);
    const now = this.now();
    const found = await this.repository.findSession(id, this.iso(now));
    if (found === undefined || found.account.disabled !== 0 || !isRole(found.account.role)) return null;
    if (now - Date.parse(found.session.last_seen_at) >= Math.min(TOUCH_EVERY_MS, this.idleMs / 10)) {
      await this.repository.touchSession(id, this.iso(now), this.iso(now + this.idleMs));
    }
    return this.principalOf(found.account, id);
  }

  /**
   * Whether a session still holds (not ended, expired or disabled), without counting the question as
   * activity: an open event stream asks it, and a quiet tab must still reach its idle expiry.
   */
  async sessionHolds(cookie: string): Promise<boolean> {
    const found = await this.repository.findSession(secretHash(cookie), this.iso(this.now()));
    return found !== undefined && found.account.disabled === 0 && isRole(found.account.role);
  }

  /** A session's principal: limited to enrolling when `--require-2fa` names its role and it has no second factor. */
  private principalOf(
    account: Pick<AccountRow, 'name' | 'role' | 'content_types' | 'totp_secret'>,
    sessionId: string,
  ): Principal {
    const principal = principalOf(account, sessionId);
    const required = mustEnrol(this.options.requireTwoFactor ?? null, principal.role, Boolean(account.totp_secret));
    return required ? { ...principal, twoFactorEnrolmentRequired: true } : principal;
  }

  /** Ends a session. */
  async signOut(sessionId: string): Promise<void> {
    await this.repository.deleteSession(sessionId);
  }
}

function principalOf(account: Pick<AccountRow, 'name' | 'role' | 'content_types'>, sessionId: string): Principal {
  return {
    via: 'session',
    name: account.name,
    role: isRole(account.role) ? account.role : 'viewer',
    types: parseTypeLimit(account.content_types),
    sessionId,
  };
}

function summaryOf(row: AccountRow): AccountSummary {
  return {
    name: row.name,
    role: isRole(row.role) ? row.role : 'viewer',
    content_types: parseTypeLimit(row.content_types),
    disabled: row.disabled !== 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function taken(name: string): AppError {
  return new AppError('conflict', `An account named ${JSON.stringify(name)} already exists`);
}

/** The sentence saying that rows made under the editor name are now this account's own. */
function inheritedNotice(name: string, rows: number): string {
  const some = rows === 1 ? '1 row already names' : `${rows} rows already name`;
  return `${some} ${name} as author (made under the editor name before accounts existed, or with the run token): they are ${name}'s own now`;
}
