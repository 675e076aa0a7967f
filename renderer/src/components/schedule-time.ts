import { formatDate } from '../i18n/formatters.js';
import { i18n } from '../i18n/i18n-instance.js';

/**
 * Schedules are kept in UTC (`YYYY-MM-DD HH:MM:SS`); people pick and read them in their own time
 * zone. These convert between the two and name the zone.
 */

/** A UTC schedule time as a Date. */
export function scheduleDate(at: string): Date {
  return new Date(`${at.replace(' ', 'T')}Z`);
}

/** A UTC schedule time in the person's time zone, e.g. "Tue, Dec 1, 2026, 08:00". */
export function formatScheduleTime(at: string): string {
  return formatDate(scheduleDate(at), {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The value of a `datetime-local` input (local time) for a Date. */
export function localInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (the person's local time) in UTC as the API takes it, or null when empty or invalid. */
export function localInputToUtc(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** The person's time zone and its offset now, e.g. "Europe/Berlin (UTC+01:00)". */
export function localZoneLabel(now: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || i18n.t('common:time.localZone');
  const minutes = -now.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '−';
  const abs = Math.abs(minutes);
  return `${zone} (UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`;
}
