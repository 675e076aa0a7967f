import { isIPv4, isIPv6 } from 'node:net';

/**
 * Failed sign-ins, counted per client address (an IPv6 address by its /64, which one machine
 * commonly holds whole) and per account name: the first few are free, then each further failure
 * is answered more slowly, and past a limit the address or the name is refused (429) for a while.
 * An attempt counts before its password is checked, so attempts sent at once never get past the
 * limit together; a right password takes its attempt back and ends the name's count.
 *
 * The name's limit stops guessing one account's password from many addresses; it is lower than the
 * address limit, so an address that locked one name can still sign in to others until it reaches
 * its own. Nothing is permanent: a lock ends after `blockMs` (the count starts again), a record
 * ends once it has had no failure for `windowMs`.
 *
 * The record is in memory, one per server: with several servers behind a balancer, each counts
 * on its own, so an attacker gets the limits once per server (still slow; a shared limiter, e.g.
 * at the balancer, would count them together).
 */

/** The limits; the defaults suit people, tests pass smaller ones. */
export interface SignInLimits {
  /** Failures answered at once. */
  freeFailures: number;
  /** Failures from one address after which it is refused. */
  blockAfter: number;
  /** Failures at one account name (from anywhere) after which it is refused. */
  nameBlockAfter: number;
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
  nameBlockAfter: 10,
  blockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
  delayMs: 250,
  maxDelayMs: 5_000,
};

/** Most addresses (and names) remembered; beyond it the oldest records are dropped (memory stays bounded). */
export const MAX_RECORDS = 10_000;

/** One sign-in attempt, counted as a failure from the start. */
export interface SignInAttempt {
  /** Milliseconds until the address or name may try again; above 0 the attempt is refused (and not counted). */
  refusedFor: number;
  /** How long to hold the answer when the password is wrong (0 for the first few failures). */
  delayMs: number;
  /** The password was right: the attempt stops counting at the address, and the name's failures end. */
  succeeded(): void;
  /** The password could not be checked (the database failed): the attempt stops counting. */
  withdrawn(): void;
  /** A password-and-code attempt's password was wrong: it counts as no guess at the code. */
  passwordWrong(): void;
}

interface Record {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
}

/** Failures per key (an address group, or a name), with their own limit. */
class FailureCounts {
  private readonly records = new Map<string, Record>();

  private readonly blockAfter: number;
  private readonly limits: SignInLimits;
  private readonly now: () => number;

  /** `blockAfter` failures lock a key out, for as long as `limits` say. */
  constructor(options: { blockAfter: number; limits: SignInLimits; now: () => number }) {
    this.blockAfter = options.blockAfter;
    this.limits = options.limits;
    this.now = options.now;
  }

  /** Milliseconds until `key` may try again, or 0. */
  refusedFor(key: string): number {
    const record = this.current(key);
    return record ? Math.max(0, record.blockedUntil - this.now()) : 0;
  }

  /** Counts a failure at `key`; returns the count. */
  count(key: string): number {
    const now = this.now();
    const record = this.current(key) ?? { failures: 0, lastFailure: now, blockedUntil: 0 };
    record.failures += 1;
    record.lastFailure = now;
    if (record.failures >= this.blockAfter) record.blockedUntil = now + this.limits.blockMs;
    // Re-inserted so the map's order is by last failure: the first key is the one to drop.
    this.records.delete(key);
    this.records.set(key, record);
    if (this.records.size > MAX_RECORDS) this.dropOldest(now);
    return record.failures;
  }

  /** Drops the oldest record that holds no lock: guessing at many names cannot push a lock out. */
  private dropOldest(now: number): void {
    for (const [key, record] of this.records) {
      if (record.blockedUntil <= now) {
        this.records.delete(key);
        return;
      }
    }
    this.records.delete(this.records.keys().next().value as string);
  }

  /** Takes back one counted failure at `key` (a lock it caused ends with it). */
  uncount(key: string): void {
    const record = this.current(key);
    if (!record) return;
    record.failures = Math.max(0, record.failures - 1);
    if (record.failures < this.blockAfter) record.blockedUntil = 0;
  }

  /** Forgets `key`'s failures. */
  forget(key: string): void {
    this.records.delete(key);
  }

  /** The live record of `key`, forgetting one whose lock has ended or that has been quiet long enough. */
  private current(key: string): Record | undefined {
    const record = this.records.get(key);
    if (!record) return undefined;
    const now = this.now();
    const lockEnded = record.blockedUntil > 0 && record.blockedUntil <= now;
    if (lockEnded || (record.blockedUntil <= now && now - record.lastFailure >= this.limits.windowMs)) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }
}

/** Counts failed sign-ins per address group and per account name. */
export class SignInLimiter {
  private readonly addresses: FailureCounts;
  private readonly names: FailureCounts;
  /** Guessed second-factor codes per name (after a right password, or with one). */
  private readonly codes: FailureCounts;

  private readonly limits: SignInLimits;

  constructor(options: { limits?: SignInLimits; now?: () => number } = {}) {
    const limits = options.limits ?? DEFAULT_SIGN_IN_LIMITS;
    const now = options.now ?? Date.now;
    this.limits = limits;
    this.addresses = new FailureCounts({ blockAfter: limits.blockAfter, limits, now });
    this.names = new FailureCounts({ blockAfter: limits.nameBlockAfter, limits, now });
    this.codes = new FailureCounts({ blockAfter: limits.nameBlockAfter, limits, now });
  }

  /**
   * Begins a sign-in from `address` at the account `name` (as sent: anything but a string counts at
   * the address alone), counted as a failure now, before anything is checked, so attempts sent at
   * once cannot pass a limit together. What it checks decides where it counts and what refuses it:
   * - `password`: the password alone; at the address and the name.
   * - `code`: a second factor after a right password; at the address, the name, and the name's
   *   code guesses (a stolen password buys no more guesses at the code).
   * - `both`: the password and a code in one request. A right guess needs both at once and a wrong
   *   one tells nothing, so the name's lock (which guards the password) does not refuse it: a name
   *   that guesses have locked still signs in this way. It counts at the address and as a code
   *   guess; `passwordWrong` takes the code guess back (it guessed no code), so wrong passwords
   *   cannot lock a person out of this way in.
   */
  attempt(address: string, name: unknown, kind: 'password' | 'code' | 'both' = 'password'): SignInAttempt {
    const group = addressGroup(address);
    const nameKey = typeof name === 'string' ? name.slice(0, 200).toLowerCase() : null;
    const atName = nameKey !== null && kind !== 'both';
    const atCodes = nameKey !== null && kind !== 'password';
    const refusedFor = Math.max(
      this.addresses.refusedFor(group),
      atName ? this.names.refusedFor(nameKey) : 0,
      atCodes ? this.codes.refusedFor(nameKey) : 0,
    );
    if (refusedFor > 0) {
      return { refusedFor, delayMs: 0, succeeded: () => {}, withdrawn: () => {}, passwordWrong: () => {} };
    }
    const failures = Math.max(
      this.addresses.count(group),
      atName ? this.names.count(nameKey) : 0,
      atCodes ? this.codes.count(nameKey) : 0,
    );
    let counted = true;
    let codeCounted = atCodes;
    const uncountCode = () => {
      if (codeCounted && nameKey !== null) this.codes.uncount(nameKey);
      codeCounted = false;
    };
    const uncount = () => {
      const was = counted;
      counted = false;
      if (was) this.addresses.uncount(group);
      return was;
    };
    return {
      refusedFor: 0,
      delayMs: this.delayFor(failures),
      succeeded: () => {
        if (uncount() && nameKey !== null) {
          this.names.forget(nameKey);
          this.codes.forget(nameKey);
        }
      },
      withdrawn: () => {
        if (uncount() && atName) this.names.uncount(nameKey);
        uncountCode();
      },
      passwordWrong: uncountCode,
    };
  }

  /** How long to hold the answer to the `failures`th failure. */
  private delayFor(failures: number): number {
    const slowed = failures - this.limits.freeFailures;
    if (slowed <= 0) return 0;
    return Math.min(this.limits.maxDelayMs, this.limits.delayMs * 2 ** Math.min(slowed - 1, 20));
  }
}

/**
 * The address group a client is counted by: an IPv4 address itself (also when written
 * IPv4-mapped, `::ffff:203.0.113.7`), an IPv6 address by its /64 (`2001:db8:1:2::/64`), since one
 * machine or home is commonly given a whole /64; anything else as it is.
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  const bare = address.split('%')[0];
  if (!isIPv6(bare)) return address;
  const [head, tail] = bare.toLowerCase().split('::');
  const groups = (part: string | undefined) =>
    part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : [];
  const first = groups(head);
  const last = groups(tail);
  const all = tail === undefined ? first : [...first, ...Array(8 - first.length - last.length).fill('0'), ...last];
  return `${all
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
