import { describe, expect, it } from 'vitest';
import { SignInLimiter } from './sign-in-limiter.js';

const LIMITS = { freeFailures: 3, blockAfter: 8, blockMs: 60_000, windowMs: 120_000, delayMs: 100, maxDelayMs: 800 };

describe('SignInLimiter', () => {
  it('answers the first failures at once, then slower and slower, then refuses the address for a while', () => {
    let now = 0;
    const limiter = new SignInLimiter(LIMITS, () => now);
    const delays = Array.from({ length: 7 }, () => limiter.failed('10.0.0.1'));
    expect(delays).toEqual([0, 0, 0, 100, 200, 400, 800]);
    expect(limiter.retryAfter('10.0.0.1')).toBe(0);
    expect(limiter.failed('10.0.0.1')).toBe(800); // capped
    expect(limiter.retryAfter('10.0.0.1')).toBe(60_000);
    now += 30_000;
    expect(limiter.retryAfter('10.0.0.1')).toBe(30_000);
    // Another address is not affected: guessing from one place locks no one else out.
    expect(limiter.retryAfter('10.0.0.2')).toBe(0);
  });

  it('never blocks for good: the refusal ends, and a quiet address is forgotten', () => {
    let now = 0;
    const limiter = new SignInLimiter(LIMITS, () => now);
    for (let i = 0; i < 8; i++) limiter.failed('10.0.0.1');
    expect(limiter.retryAfter('10.0.0.1')).toBeGreaterThan(0);
    now += 60_000;
    expect(limiter.retryAfter('10.0.0.1')).toBe(0);
    now += 120_000;
    // Forgotten: the next failures are free again.
    expect(limiter.failed('10.0.0.1')).toBe(0);
  });
});
