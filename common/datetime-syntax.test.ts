import { describe, expect, it } from 'vitest';
import { normalizeDatetime, timestampNow } from './datetime-syntax.js';

describe('normalizeDatetime', () => {
  it.each([
    ['2025-03-04 05:06:07', '2025-03-04 05:06:07'],
    ['2025-03-04T05:06:07', '2025-03-04 05:06:07'],
    ['2025-03-04T05:06', '2025-03-04 05:06:00'],
    ['2025-03-04T05:06:07.123Z', '2025-03-04 05:06:07'],
    ['2024-02-29 23:59:59', '2024-02-29 23:59:59'],
  ])('reads %j as %j', (input, expected) => {
    expect(normalizeDatetime(input)).toBe(expected);
  });

  it.each([
    '2025-02-29 10:00:00',
    '2025-04-31 10:00:00',
    '2025-13-01 10:00:00',
    '2025-01-01 24:00:00',
    '2025-01-01 10:60:00',
    '2025-01-01 10:00:60',
    '2025-01-01',
    'yesterday',
    '2025-1-1 1:2:3',
    '0000-01-01 00:00:00',
  ])('refuses %j, which is not a real date and time', (input) => {
    expect(normalizeDatetime(input)).toBeNull();
  });
});

describe('timestampNow', () => {
  it('formats UTC with six fractional digits', () => {
    expect(timestampNow(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 67)))).toBe('2026-01-02 03:04:05.067000');
  });
});
