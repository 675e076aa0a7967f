import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLanguage } from '../i18n/i18n-instance.js';
import { formatWallTime, fromInputValue, timeAgo, toInputValue, wireFromDate } from './datetime-value.js';

// The editor formats in its current language, whose catalogs are loaded when chosen.
beforeAll(() => Promise.all([ensureLanguage('de'), ensureLanguage('fr'), ensureLanguage('es')]));

describe('datetime conversion between the API and the datetime-local input', () => {
  it.each([
    ['2025-01-06 08:30:00', '2025-01-06T08:30:00'],
    ['2024-02-29 23:59:59', '2024-02-29T23:59:59'],
    ['2025-01-06T08:30', '2025-01-06T08:30:00'],
    ['2025-01-06 08:30:15.123456', '2025-01-06T08:30:15'],
  ])('shows API value %s in the input as %s', (wire, input) => {
    expect(toInputValue(wire)).toBe(input);
  });

  it.each([
    ['2025-01-06T08:30:05', '2025-01-06 08:30:05'],
    // Chromium drops zero seconds from the input's value even with step=1.
    ['2025-01-06T08:30', '2025-01-06 08:30:00'],
    ['0999-12-31T00:00:00', '0999-12-31 00:00:00'],
  ])('writes input value %s to the API as %s', (input, wire) => {
    expect(fromInputValue(input)).toBe(wire);
  });

  it('round-trips every API value unchanged', () => {
    for (const wire of ['2025-01-06 08:30:00', '1999-12-31 23:59:59', '2030-06-15 12:00:01']) {
      expect(fromInputValue(toInputValue(wire))).toBe(wire);
    }
  });

  it.each(['', 'yesterday', '2025-13-01 00:00:00', '2025-02-30 10:00:00', '2025-01-01 24:00:00'])(
    'treats %j as empty rather than inventing a date',
    (text) => {
      expect(toInputValue(text)).toBe('');
      expect(fromInputValue(text)).toBe('');
    },
  );

  it('takes "now" as local wall-clock time without a zone shift', () => {
    expect(wireFromDate(new Date(2025, 2, 4, 5, 6, 7))).toBe('2025-03-04 05:06:07');
  });

  it('formats a wall time for the list in the given locale', () => {
    expect(formatWallTime('2025-01-06 08:30:00', 'en-GB')).toBe('6 Jan 2025, 08:30');
    expect(formatWallTime('not a date')).toBe('not a date');
  });

  it('says how long ago a UTC server timestamp was', () => {
    const now = new Date(Date.UTC(2025, 0, 10, 12, 0, 0));
    expect(timeAgo('2025-01-10 11:59:40.000000', now)).toBe('just now');
    expect(timeAgo('2025-01-10 11:55:00.000000', now)).toBe('5 minutes ago');
    expect(timeAgo('2025-01-10 09:00:00.000000', now)).toBe('3 hours ago');
    expect(timeAgo('2025-01-09 12:00:00.000000', now)).toBe('yesterday');
    expect(timeAgo('2025-01-07 12:00:00.000000', now)).toBe('3 days ago');
    expect(timeAgo('2024-12-01 12:00:00.000000', now, 'en-GB')).toBe('1 Dec 2024');
  });

  it('says it in the language asked for', () => {
    const now = new Date(Date.UTC(2025, 0, 10, 12, 0, 0));
    expect(timeAgo('2025-01-10 11:59:40.000000', now, 'de')).toBe('gerade eben');
    expect(timeAgo('2025-01-10 11:55:00.000000', now, 'de')).toBe('vor 5 Minuten');
    expect(timeAgo('2025-01-09 12:00:00.000000', now, 'fr')).toBe('hier');
    expect(timeAgo('2025-01-07 12:00:00.000000', now, 'es')).toBe('hace 3 días');
    expect(formatWallTime('2025-01-06 08:30:00', 'de')).toBe('06.01.2025, 08:30');
  });
});
