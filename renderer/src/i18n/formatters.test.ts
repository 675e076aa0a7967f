import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatRelative } from './formatters.js';

describe('formatting in the editor’s language', () => {
  it('writes numbers the way each language does', () => {
    expect(formatNumber(1234.5, {}, 'en')).toBe('1,234.5');
    expect(formatNumber(1234.5, {}, 'de')).toBe('1.234,5');
    expect(formatNumber(1234.5, {}, 'fr')).toMatch(/^1\s234,5$/);
  });

  it('writes dates and times the way each language does', () => {
    const date = new Date(2025, 0, 6, 8, 30);
    expect(formatDate(date, { dateStyle: 'long' }, 'en')).toBe('January 6, 2025');
    expect(formatDate(date, { dateStyle: 'long' }, 'de')).toBe('6. Januar 2025');
    expect(formatDate(date, { dateStyle: 'long' }, 'es')).toBe('6 de enero de 2025');
    expect(formatDateTime(date, 'fr')).toMatch(/^6 janv\. 2025.*08:30$/);
  });

  it('says how long ago in words, in minutes, hours or days, and nothing under a minute or over a week', () => {
    const now = Date.UTC(2025, 0, 10, 12, 0, 0);
    expect(formatRelative(now - 20_000, now, 'en')).toBeNull();
    expect(formatRelative(now - 5 * 60_000, now, 'en')).toBe('5 minutes ago');
    expect(formatRelative(now - 3 * 3_600_000, now, 'de')).toBe('vor 3 Stunden');
    expect(formatRelative(now - 24 * 3_600_000, now, 'fr')).toBe('hier');
    expect(formatRelative(now + 2 * 86_400_000, now, 'es')).toBe('pasado mañana');
    expect(formatRelative(now - 8 * 86_400_000, now, 'en')).toBeNull();
  });
});
