import { describe, expect, it } from 'vitest';
import { localInputToUtc, localInputValue, localZoneLabel, scheduleDate } from './schedule-time.js';

describe('schedule times between the person’s zone and UTC', () => {
  it('turns a picked local time into the UTC the API keeps, and back', () => {
    const picked = '2030-06-01T09:30';
    const utc = localInputToUtc(picked);
    expect(utc).toBe(new Date(picked).toISOString().slice(0, 19).replace('T', ' '));
    expect(localInputValue(scheduleDate(utc as string))).toBe(picked);
  });

  it('refuses what is not a date and time', () => {
    for (const value of ['', '2030-06-01', 'tomorrow', '2030-13-01T09:30', '2030-06-01 09:30']) {
      expect(localInputToUtc(value), value).toBeNull();
    }
  });

  it('names the zone and its offset from UTC', () => {
    const label = localZoneLabel(new Date('2030-06-01T09:30:00Z'));
    expect(label).toMatch(/^.+ \(UTC[+−]\d{2}:\d{2}\)$/);
    const minutes = -new Date('2030-06-01T09:30:00Z').getTimezoneOffset();
    const sign = minutes >= 0 ? '+' : '−';
    expect(label).toContain(`UTC${sign}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}`);
  });
});
