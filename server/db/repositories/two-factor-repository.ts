import type { Kysely } from 'kysely';
import type { QuireDatabase } from '../schema.js';
import { ACCOUNTS_TABLE } from './account-repository.js';

/** Sign-ins waiting for their second factor, by the SHA-256 of their one-time cookie. */
export const TWO_FACTOR_CHALLENGES_TABLE = 'quire_two_factor_challenges';

/** An account's two-factor columns. */
export interface TwoFactorRow {
  id: string;
  name: string;
  role: string;
  disabled: number;
  password_hash: string;
  /** The confirmed TOTP secret (base32), or null: two-factor sign-in is off. */
  totp_secret: string | null;
  /** A secret being enrolled, not yet confirmed with a code. */
  totp_pending_secret: string | null;
  /** The last TOTP time step a code was accepted for. */
  totp_last_step: number | null;
  /** The recovery codes' salt and hashes (JSON), or null. */
  recovery_codes: string | null;
}

/** A waiting second factor. */
export interface ChallengeRow {
  id: string;
  account_id: string;
  expires_at: string;
}

interface Tables {
  quire_accounts: TwoFactorRow;
  quire_two_factor_challenges: ChallengeRow;
}

const COLUMNS = [
  'id',
  'name',
  'role',
  'disabled',
  'password_hash',
  'totp_secret',
  'totp_pending_secret',
  'totp_last_step',
  'recovery_codes',
] as const;

/**
 * All SQL of two-factor sign-in, the same on both engines. Each use-once step (a TOTP time step,
 * a recovery code, a challenge) is one conditional statement, so two requests at once cannot both
 * use it, on one server or several sharing a database.
 */
export class TwoFactorRepository {
  private readonly db: Kysely<Tables>;

  constructor(db: Kysely<QuireDatabase> | Kysely<unknown>) {
    this.db = db as unknown as Kysely<Tables>;
  }

  async findByName(name: string): Promise<TwoFactorRow | undefined> {
    const row = await this.db.selectFrom(ACCOUNTS_TABLE).select(COLUMNS).where('name', '=', name).executeTakeFirst();
    return row && normalized(row);
  }

  async findById(id: string): Promise<TwoFactorRow | undefined> {
    const row = await this.db.selectFrom(ACCOUNTS_TABLE).select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && normalized(row);
  }

  /** Keeps a secret being enrolled (replacing an earlier unconfirmed one). */
  async setPendingSecret(id: string, secret: string, now: string): Promise<void> {
    await this.db
      .updateTable(ACCOUNTS_TABLE)
      .set({ totp_pending_secret: secret, updated_at: now } as Partial<TwoFactorRow>)
      .where('id', '=', id)
      .execute();
  }

  /**
   * Turns the pending secret on with its recovery codes, if it is still the one confirmed (an
   * enrolment started again meanwhile is not confirmed by the old code). Returns whether it was.
   */
  async confirm(id: string, secret: string, step: number, recoveryCodes: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable(ACCOUNTS_TABLE)
      .set({
        totp_secret: secret,
        totp_pending_secret: null,
        totp_last_step: step,
        recovery_codes: recoveryCodes,
        updated_at: now,
      } as Partial<TwoFactorRow>)
      .where('id', '=', id)
      .where('totp_pending_secret', '=', secret)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records `step` as used, if no later or equal step was: whether this request is the one that used it. */
  async claimStep(id: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable(ACCOUNTS_TABLE)
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where('totp_secret', 'is not', null)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Replaces the recovery codes, if they are still `before`: whether this request changed them. */
  async swapRecoveryCodes(id: string, before: string, after: string): Promise<boolean> {
    const result = await this.db
      .updateTable(ACCOUNTS_TABLE)
      .set({ recovery_codes: after })
      .where('id', '=', id)
      .where('recovery_codes', '=', before)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Turns two-factor sign-in off (and forgets any enrolment); returns whether the account exists. */
  async clear(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable(ACCOUNTS_TABLE)
      .set({
        totp_secret: null,
        totp_pending_secret: null,
        totp_last_step: null,
        recovery_codes: null,
        updated_at: now,
      } as Partial<TwoFactorRow>)
      .where('id', '=', id)
      .executeTakeFirst();
    await this.db.deleteFrom(TWO_FACTOR_CHALLENGES_TABLE).where('account_id', '=', id).execute();
    return Number(result.numUpdatedRows) === 1;
  }

  async insertChallenge(row: ChallengeRow): Promise<void> {
    await this.db.insertInto(TWO_FACTOR_CHALLENGES_TABLE).values(row).execute();
  }

  /** The live challenge with this id hash. */
  async findChallenge(id: string, now: string): Promise<ChallengeRow | undefined> {
    return this.db
      .selectFrom(TWO_FACTOR_CHALLENGES_TABLE)
      .selectAll()
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Ends a challenge: whether this request is the one that ended it (it completes once). */
  async takeChallenge(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom(TWO_FACTOR_CHALLENGES_TABLE).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Forgets challenges that ran out. */
  async deleteExpiredChallenges(now: string): Promise<void> {
    await this.db.deleteFrom(TWO_FACTOR_CHALLENGES_TABLE).where('expires_at', '<=', now).execute();
  }
}

/** PostgreSQL hands back integers as they are, SQLite too; a bigint or text step is read as a number. */
function normalized(row: TwoFactorRow): TwoFactorRow {
  return {
    ...row,
    disabled: Number(row.disabled),
    totp_last_step: row.totp_last_step === null ? null : Number(row.totp_last_step),
  };
}
