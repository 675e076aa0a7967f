import { randomUUID } from 'node:crypto';
import { isRole } from '../../common/access-rules.js';
import type { CreateTokenResponse, TokenSummary } from '../../common/api-contract.js';
import type { AccountRepository, TokenRow } from '../db/repositories/account-repository.js';
import { AppError } from '../errors/app-error.js';
import { checkExpiryDays, checkName, checkRole, checkTypeLimit } from './account-input.js';
import { newSecret, type Principal, parseTypeLimit, secretHash } from './principal.js';

/** What every token starts with: says what it is (secret scanners, a reader of a config file). */
export const TOKEN_PREFIX = 'quire_';

/** A token's last-used time is written at most this often. */
const TOUCH_EVERY_MS = 60_000;

const DAY_MS = 24 * 60 * 60_000;

/** A new token's details, unchecked. */
export interface NewToken {
  name: unknown;
  role: unknown;
  content_types?: unknown;
  expires_days?: unknown;
}

/** API tokens for builds and scripts: named, with a role, stored only as a hash. */
export class TokenService {
  private readonly repository: AccountRepository;
  private readonly now: () => number;

  constructor(options: { repository: AccountRepository; now?: () => number }) {
    this.repository = options.repository;
    this.now = options.now ?? Date.now;
  }

  async list(): Promise<TokenSummary[]> {
    return (await this.repository.listTokens()).map(summaryOf);
  }

  /** Makes a token; the answer holds the token itself, which is never shown again. */
  async add(input: NewToken): Promise<CreateTokenResponse> {
    const name = checkName(input.name);
    const role = checkRole(input.role);
    const types = checkTypeLimit(input.content_types);
    const days = checkExpiryDays(input.expires_days);
    if (await this.repository.activeTokenNamed(name)) {
      throw new AppError(
        'conflict',
        `A token named ${JSON.stringify(name)} exists: revoke it first, or pick another name`,
      );
    }
    // created_by holds either kind of name: a token must not pass for a person (an author's rows).
    if (await this.repository.findAccount(name)) {
      throw new AppError('conflict', `${JSON.stringify(name)} is an account's name; give the token another`);
    }
    const secret = `${TOKEN_PREFIX}${newSecret()}`;
    const now = this.now();
    const row: TokenRow = {
      id: randomUUID(),
      name,
      role,
      content_types: types === null ? null : JSON.stringify(types),
      token_hash: secretHash(secret),
      expires_at: days === null ? null : new Date(now + days * DAY_MS).toISOString(),
      revoked_at: null,
      last_used_at: null,
      created_at: new Date(now).toISOString(),
    };
    await this.repository.insertToken(row);
    return { ...summaryOf(row), token: secret };
  }

  /** Revokes the token named `name` (a 404 when there is none in use). */
  async revoke(name: string): Promise<TokenSummary> {
    const revoked = await this.repository.revokeToken(name, new Date(this.now()).toISOString());
    if (revoked === 0) throw new AppError('not_found', `There is no token named ${JSON.stringify(name)} in use`);
    const rows = await this.repository.listTokens();
    const row = rows.filter((token) => token.name === name && token.revoked_at !== null).at(-1);
    if (!row) throw new AppError('not_found', `There is no token named ${JSON.stringify(name)}`);
    return summaryOf(row);
  }

  /**
   * Who a bearer token belongs to, or null (unknown, revoked or expired). It is found by its hash,
   * so the time taken does not depend on how much of a guess is right.
   */
  async principal(token: string): Promise<Principal | null> {
    if (token.length > 200) return null;
    const row = await this.repository.findTokenByHash(secretHash(token));
    const now = this.now();
    if (!row || row.revoked_at !== null || !isRole(row.role)) return null;
    if (row.expires_at !== null && Date.parse(row.expires_at) <= now) return null;
    if (row.last_used_at === null || now - Date.parse(row.last_used_at) >= TOUCH_EVERY_MS) {
      await this.repository.touchToken(row.id, new Date(now).toISOString());
    }
    return { via: 'token', name: row.name, role: row.role, types: parseTypeLimit(row.content_types) };
  }
}

function summaryOf(row: TokenRow): TokenSummary {
  return {
    name: row.name,
    role: isRole(row.role) ? row.role : 'viewer',
    content_types: parseTypeLimit(row.content_types),
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
    created_at: row.created_at,
  };
}
