/**
 * Failed sign-ins per client address: the first few are free, then each further failure is
 * answered more slowly, and past a limit the address is refused (429) for a while. Nothing is
 * permanent: an address's record ends once it has had no failure for `windowMs`, a block ends
 * after `blockMs`, and a person is never locked out by someone else's guessing (it is per
 * address, not per account).
 *
 * The record is in memory, one per server: with several servers behind a balancer, each counts
 * on its own, so an attacker gets the limits once per server (still slow; a shared limiter, e.g.
 * at the balancer, would count them together).
 */

/** The limits; the defaults suit people, tests pass smaller ones. */
export interface SignInLimits {
  /** Failures answered at once. */
  freeFailures: number;
  /** Failures after which the address is refused. */
  blockAfter: number;
  /** How long a refusal lasts. */
  blockMs: number;
  /** A record without a failure for this long is forgotten. */
  windowMs: number;
  /** The delay of the first slowed failure; it doubles with each further one. */
  delayMs: number;
  /** The longest delay. */
  maxDelayMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  freeFailures: 5,
  blockAfter: 20,
  blockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
  delayMs: 250,
  maxDelayMs: 5_000,
};

/** Most addresses remembered; beyond it the oldest records are dropped (memory stays bounded). */
const MAX_RECORDS = 10_000;

interface Record {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
}

/** Counts failed sign-ins per address. */
export class SignInLimiter {
  private readonly records = new Map<string, Record>();

  constructor(
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until `address` may try again, or 0 when it may now. */
  retryAfter(address: string): number {
    const record = this.current(address);
    return record ? Math.max(0, record.blockedUntil - this.now()) : 0;
  }

  /** Records a failure; returns how long to hold the answer (0 for the first few). */
  failed(address: string): number {
    const now = this.now();
    const record = this.current(address) ?? { failures: 0, lastFailure: now, blockedUntil: 0 };
    record.failures += 1;
    record.lastFailure = now;
    if (record.failures >= this.limits.blockAfter) record.blockedUntil = now + this.limits.blockMs;
    // Re-inserted so the map's order is by last failure: the first key is the one to drop.
    this.records.delete(address);
    this.records.set(address, record);
    if (this.records.size > MAX_RECORDS) this.records.delete(this.records.keys().next().value as string);
    const slowed = record.failures - this.limits.freeFailures;
    if (slowed <= 0) return 0;
    return Math.min(this.limits.maxDelayMs, this.limits.delayMs * 2 ** Math.min(slowed - 1, 20));
  }

  /** The live record of `address`, forgetting one that has run out. */
  private current(address: string): Record | undefined {
    const record = this.records.get(address);
    if (!record) return undefined;
    const now = this.now();
    if (record.blockedUntil <= now && now - record.lastFailure >= this.limits.windowMs) {
      this.records.delete(address);
      return undefined;
    }
    return record;
  }
}
