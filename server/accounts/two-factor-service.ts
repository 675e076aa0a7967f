import { create as createQrCode, toDataURL } from 'qrcode';
import type { TwoFactorEnrolmentResponse, TwoFactorStatus } from '../../common/two-factor-contract.js';
import type { TwoFactorRepository, TwoFactorRow } from '../db/repositories/two-factor-repository.js';
import { AppError } from '../errors/app-error.js';
import { verifyPassword } from './password-hash.js';
import { newSecret, secretHash } from './principal.js';
import {
  hashRecoveryCodes,
  isTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodesLeft,
  redeemRecoveryCode,
  totpStep,
  totpUri,
} from './two-factor-codes.js';

/** Who must enrol in two-factor sign-in (`--require-2fa`): admins, everyone, or no one. */
export type TwoFactorRequirement = 'admins' | 'everyone' | null;

/** The values `--require-2fa` and QUIRE_REQUIRE_2FA take. */
export const TWO_FACTOR_REQUIREMENTS = ['admins', 'everyone'] as const;

/** `--require-2fa`'s value checked: `admins` or `everyone` (any case); throws a one-line Error otherwise. */
export function parseTwoFactorRequirement(raw: string | undefined): TwoFactorRequirement {
  if (raw === undefined) return null;
  const value = raw.trim().toLowerCase();
  if (value === 'admins' || value === 'everyone') return value;
  throw new Error(`${JSON.stringify(raw)} is not one of admins, everyone`);
}

/** Whether an account of `role` without two-factor sign-in must enrol before doing anything else. */
export function mustEnrol(requirement: TwoFactorRequirement, role: string, enrolled: boolean): boolean {
  if (enrolled || requirement === null) return false;
  return requirement === 'everyone' || role === 'admin';
}

/** Who must enrol, and the clock codes are checked by (tests set it). */
export interface TwoFactorOptions {
  requirement?: TwoFactorRequirement;
  now?: () => number;
}

/** Where TwoFactorService keeps enrolments, who must enrol, and its clock. */
export interface TwoFactorServiceOptions extends TwoFactorOptions {
  repository: TwoFactorRepository;
}

/** How long the password step's one-time token waits for the second factor. */
export const CHALLENGE_MS = 5 * 60_000;

/** The codes that complete a sign-in or confirm a change. */
const wrongCode = () => new AppError('unauthorized', 'The code is wrong or was already used');

/**
 * Two-factor sign-in: enrolment (a secret shown once, confirmed with a code, which gives ten
 * recovery codes shown once), the second step of signing in, turning it off, and an admin's reset.
 * A TOTP code is accepted once: its time step is recorded, and no code of that step or an earlier
 * one is accepted again. A recovery code is removed when used.
 */
export class TwoFactorService {
  private readonly repository: TwoFactorRepository;
  private readonly options: TwoFactorOptions;

  constructor(options: TwoFactorServiceOptions) {
    const { repository, ...rest } = options;
    this.repository = repository;
    this.options = rest;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Who must enrol on this server. */
  get requirement(): TwoFactorRequirement {
    return this.options.requirement ?? null;
  }

  private async account(name: string): Promise<TwoFactorRow> {
    const row = await this.repository.findByName(name);
    if (!row) throw new AppError('not_found', `There is no account named ${JSON.stringify(name)}`);
    return row;
  }

  /** The account's two-factor state. */
  async state(name: string): Promise<TwoFactorStatus> {
    return this.stateOf(await this.account(name));
  }

  stateOf(row: Pick<TwoFactorRow, 'role' | 'totp_secret' | 'recovery_codes'>): TwoFactorStatus {
    const enabled = row.totp_secret !== null;
    return {
      enabled,
      enrolment_required: mustEnrol(this.requirement, row.role, enabled),
      recovery_codes_left: enabled ? recoveryCodesLeft(row.recovery_codes) : 0,
    };
  }

  /** Starts (or starts again) enrolling `name`: a new secret, kept pending until a code confirms it. */
  async beginEnrolment(name: string): Promise<TwoFactorEnrolmentResponse> {
    const row = await this.account(name);
    if (row.totp_secret !== null) {
      throw new AppError('conflict', 'Two-factor sign-in is already on: turn it off first to enrol another app');
    }
    const secret = newTotpSecret();
    await this.repository.setPendingSecret(row.id, secret, new Date(this.now()).toISOString());
    const uri = totpUri(secret, row.name);
    return {
      secret,
      uri,
      qr_code: await toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, scale: 6 }),
      qr_path: qrPath(uri),
    };
  }

  /** Confirms an enrolment with a code from the app: turns two-factor sign-in on; the recovery codes, shown once. */
  async confirmEnrolment(name: string, code: unknown): Promise<string[]> {
    const row = await this.account(name);
    if (row.totp_secret !== null) throw new AppError('conflict', 'Two-factor sign-in is already on');
    if (row.totp_pending_secret === null) {
      throw new AppError('conflict', 'No enrolment was started: start one, then confirm it with a code from the app');
    }
    const step = totpStep(row.totp_pending_secret, codeText(code), this.now());
    if (step === null) throw wrongCode();
    const codes = newRecoveryCodes();
    const stored = await hashRecoveryCodes(codes);
    const now = new Date(this.now()).toISOString();
    if (!(await this.repository.confirm(row.id, row.totp_pending_secret, step, stored, now))) {
      throw new AppError('conflict', 'The enrolment changed meanwhile (started again elsewhere): scan the new code');
    }
    return codes;
  }

  /**
   * Whether `code` (a TOTP code or a recovery code) is right for the account now, using it up: a
   * TOTP code's step is recorded, a recovery code removed.
   */
  async redeemCode(row: TwoFactorRow, code: unknown): Promise<boolean> {
    const text = codeText(code);
    if (row.totp_secret === null) return false;
    if (isTotpCode(text)) {
      const step = totpStep(row.totp_secret, text, this.now());
      return step !== null && (await this.repository.claimStep(row.id, step));
    }
    // Another recovery code used meanwhile changes the stored list: read it again and retry, so
    // two codes sent at once both work while one code sent twice works once.
    let stored = row.recovery_codes;
    for (let tries = 0; tries < 5 && stored !== null; tries++) {
      const rest = await redeemRecoveryCode(stored, text);
      if (rest === null) return false;
      if (await this.repository.swapRecoveryCodes(row.id, stored, rest)) return true;
      stored = (await this.repository.findById(row.id))?.recovery_codes ?? null;
    }
    return false;
  }

  /** Turns two-factor sign-in off for oneself: needs the password and a code (or a recovery code). */
  async disable(name: string, password: unknown, code: unknown): Promise<void> {
    const row = await this.account(name);
    if (row.totp_secret === null) throw new AppError('conflict', 'Two-factor sign-in is not on');
    const given = typeof password === 'string' && password.length <= 1024 ? password : '';
    if (!(await verifyPassword(given, row.password_hash))) throw new AppError('unauthorized', 'The password is wrong');
    if (!(await this.redeemCode(row, code))) throw wrongCode();
    await this.repository.clear(row.id, new Date(this.now()).toISOString());
  }

  /** An admin's reset of `name` (a lost phone): two-factor sign-in off; returns whether it was on. */
  async reset(name: string): Promise<boolean> {
    const row = await this.account(name);
    await this.repository.clear(row.id, new Date(this.now()).toISOString());
    return row.totp_secret !== null;
  }

  /**
   * Whether `code` is right for the account with this id now (using it up as redeemCode does);
   * false for an account without two-factor sign-in.
   */
  async redeemCodeOf(accountId: string, code: unknown): Promise<boolean> {
    const row = await this.repository.findById(accountId);
    return row !== undefined && row.disabled === 0 && (await this.redeemCode(row, code));
  }

  /** Whether the account signs in with a second factor. */
  async isOn(accountId: string): Promise<boolean> {
    return (await this.repository.findById(accountId))?.totp_secret != null;
  }

  /** After a right password: a one-time cookie value that waits for the second factor (no session yet). */
  async startChallenge(accountId: string): Promise<string> {
    const token = newSecret();
    const now = this.now();
    await this.repository.deleteExpiredChallenges(new Date(now).toISOString());
    await this.repository.insertChallenge({
      id: secretHash(token),
      account_id: accountId,
      expires_at: new Date(now + CHALLENGE_MS).toISOString(),
    });
    return token;
  }

  /** The account a live challenge waits for, or undefined (unknown, expired, or the account gone or disabled). */
  async challenged(token: string | null): Promise<TwoFactorRow | undefined> {
    if (token === null) return undefined;
    const challenge = await this.repository.findChallenge(secretHash(token), new Date(this.now()).toISOString());
    if (!challenge) return undefined;
    const row = await this.repository.findById(challenge.account_id);
    return row && row.disabled === 0 ? row : undefined;
  }

  /** Ends a challenge once its code was right: whether this request ended it (a challenge completes once). */
  async finishChallenge(token: string): Promise<boolean> {
    return this.repository.takeChallenge(secretHash(token));
  }
}

/** The QR code of `text` as one SVG path: a unit square per dark module. */
function qrPath(text: string): { size: number; d: string } {
  const { size, data } = createQrCode(text, { errorCorrectionLevel: 'M' }).modules;
  const squares: string[] = [];
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      if (data[row * size + column]) squares.push(`M${column} ${row}h1v1h-1z`);
    }
  }
  return { size, d: squares.join('') };
}

/** A code as sent: text of reasonable length, else nothing that can match. */
function codeText(code: unknown): string {
  return typeof code === 'string' && code.length <= 64 ? code : '';
}
