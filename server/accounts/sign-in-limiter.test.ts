import { describe, expect, it } from 'vitest';
import { addressGroup, MAX_RECORDS, SignInLimiter } from './sign-in-limiter.js';

const LIMITS = {
  freeFailures: 3,
  blockAfter: 8,
  nameBlockAfter: 5,
  blockMs: 60_000,
  windowMs: 120_000,
  delayMs: 100,
  maxDelayMs: 800,
};

/** `count` failed attempts: each counted, then its password found wrong. */
function fail(limiter: SignInLimiter, address: string, name: string, count = 1): number[] {
  return Array.from({ length: count }, () => limiter.attempt(address, name).delayMs);
}

describe('SignInLimiter', () => {
  it('answers the first failures at once, then slower and slower, then refuses the address for a while', () => {
    let now = 0;
    const limiter = new SignInLimiter({ limits: LIMITS, now: () => now });
    // A different name each time: only the address limit applies.
    const delays = Array.from({ length: 7 }, (_, i) => limiter.attempt('10.0.0.1', `user${i}`).delayMs);
    expect(delays).toEqual([0, 0, 0, 100, 200, 400, 800]);
    expect(limiter.attempt('10.0.0.1', 'user7').delayMs).toBe(800); // capped; the 8th, still checked
    const refused = limiter.attempt('10.0.0.1', 'user8');
    expect(refused.refusedFor).toBe(60_000);
    now += 30_000;
    expect(limiter.attempt('10.0.0.1', 'user9').refusedFor).toBe(30_000);
    // Another address is not affected.
    expect(limiter.attempt('10.0.0.2', 'user9').refusedFor).toBe(0);
  });

  it('counts an attempt before its password is checked: attempts in flight together never exceed the limit', () => {
    const limiter = new SignInLimiter({ limits: LIMITS, now: () => 0 });
    // 100 attempts begun before any is answered, each at another name.
    const begun = Array.from({ length: 100 }, (_, i) => limiter.attempt('10.0.0.1', `user${i}`));
    expect(begun.filter((attempt) => attempt.refusedFor === 0)).toHaveLength(LIMITS.blockAfter);
    // The same at one name, from many addresses: the name's limit holds.
    const atOneName = Array.from({ length: 100 }, (_, i) => limiter.attempt(`10.1.0.${i}`, 'ada'));
    expect(atOneName.filter((attempt) => attempt.refusedFor === 0)).toHaveLength(LIMITS.nameBlockAfter);
  });

  it('does not count a sign-in whose password was right, and forgets the failures at its name', () => {
    const limiter = new SignInLimiter({ limits: LIMITS, now: () => 0 });
    for (let i = 0; i < 20; i++) limiter.attempt('10.0.0.1', 'ada').succeeded();
    expect(limiter.attempt('10.0.0.1', 'ada').refusedFor).toBe(0);
    // Calling succeeded twice refunds once.
    const attempt = limiter.attempt('10.0.0.2', 'edna');
    attempt.succeeded();
    attempt.succeeded();
    fail(limiter, '10.0.0.2', 'edna', LIMITS.nameBlockAfter);
    expect(limiter.attempt('10.0.0.2', 'edna').refusedFor).toBeGreaterThan(0);
    // An attempt whose password could not be checked does not count either.
    for (let i = 0; i < 20; i++) limiter.attempt('10.0.0.5', 'anna').withdrawn();
    expect(limiter.attempt('10.0.0.5', 'anna').refusedFor).toBe(0);
    // Failures at a name end with a right password (before a lock): the person proved who they are.
    fail(limiter, '10.0.0.3', 'vera', LIMITS.nameBlockAfter - 1);
    limiter.attempt('10.0.0.3', 'vera').succeeded();
    fail(limiter, '10.0.0.4', 'vera', LIMITS.nameBlockAfter - 1);
    expect(limiter.attempt('10.0.0.4', 'vera').refusedFor).toBe(0);
  });

  it('locks a guessed name wherever the guesses come from, and no other name beyond the address limit', () => {
    const limiter = new SignInLimiter({ limits: LIMITS, now: () => 0 });
    for (let i = 0; i < LIMITS.nameBlockAfter; i++) fail(limiter, `10.0.${i}.1`, 'ada');
    expect(limiter.attempt('10.0.99.1', 'ADA').refusedFor).toBe(60_000);
    // From an address that guessed ada's password: another name is still checked...
    const other = limiter.attempt('10.0.0.1', 'edna');
    expect(other.refusedFor).toBe(0);
    other.succeeded();
    // ...until the address reaches its own limit.
    for (let i = 1; i < LIMITS.blockAfter; i++) fail(limiter, '10.0.0.1', `nobody${i}`);
    expect(limiter.attempt('10.0.0.1', 'edna').refusedFor).toBe(60_000);
  });

  it('keeps a lock while guesses at many other names fill its memory', () => {
    const limiter = new SignInLimiter({ limits: { ...LIMITS, blockAfter: 10 * MAX_RECORDS }, now: () => 0 });
    fail(limiter, '10.0.0.1', 'ada', LIMITS.nameBlockAfter);
    // As many other names as it remembers, each once (from an address group of its own).
    for (let i = 0; i < MAX_RECORDS; i++) fail(limiter, `10.${i >> 8}.${i & 255}.9`, `other${i}`);
    expect(limiter.attempt('10.0.0.2', 'ada').refusedFor).toBe(60_000);
  });

  it('lets a locked name sign in with password and code together, and counts code guesses on their own', () => {
    const limiter = new SignInLimiter({ limits: LIMITS, now: () => 0 });
    fail(limiter, '10.0.0.1', 'ada', 5);
    expect(limiter.attempt('10.0.0.2', 'ada').refusedFor).toBe(60_000);
    // Password and code in one request: the name's lock does not refuse it.
    expect(limiter.attempt('10.0.0.2', 'ada', 'both').refusedFor).toBe(0);
    // Wrong passwords sent with a code guess no code: they never lock this way in.
    for (let i = 0; i < 6; i++) limiter.attempt('10.0.0.3', 'ada', 'both').passwordWrong();
    expect(limiter.attempt('10.0.0.4', 'ada', 'both').refusedFor).toBe(0);
    // Codes guessed with a right password lock it, and the second step too.
    for (let i = 0; i < 5; i++) limiter.attempt(`10.0.1.${i}`, 'bob', 'both');
    expect(limiter.attempt('10.0.2.1', 'bob', 'both').refusedFor).toBe(60_000);
    expect(limiter.attempt('10.0.2.1', 'bob', 'code').refusedFor).toBe(60_000);
    // The address's own limit holds whatever the kind.
    for (let i = 0; i < 8; i++) fail(limiter, '10.0.9.9', `x${i}`);
    expect(limiter.attempt('10.0.9.9', 'carl', 'both').refusedFor).toBe(60_000);
  });

  it('never blocks for good: the refusal ends, and a quiet address or name is forgotten', () => {
    let now = 0;
    const limiter = new SignInLimiter({ limits: LIMITS, now: () => now });
    fail(limiter, '10.0.0.1', 'ada', LIMITS.nameBlockAfter);
    expect(limiter.attempt('10.0.0.2', 'ada').refusedFor).toBeGreaterThan(0);
    now += 60_000;
    const after = limiter.attempt('10.0.0.2', 'ada');
    expect(after.refusedFor).toBe(0);
    after.succeeded();
    now += 120_000;
    // Forgotten: the next failures are free again.
    expect(fail(limiter, '10.0.0.1', 'ada')).toEqual([0]);
  });
});

describe('addressGroup', () => {
  it('is an IPv4 address itself, also written IPv4-mapped', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const group = addressGroup('2001:db8:1:2::1');
    expect(group).toBe('2001:db8:1:2::/64');
    for (const same of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002::9', '2001:db8:1:2:0:0:0:1%eth0']) {
      expect(addressGroup(same), same).toBe(group);
    }
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(group);
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('keeps anything else as it is', () => {
    expect(addressGroup('unknown')).toBe('unknown');
  });
});
