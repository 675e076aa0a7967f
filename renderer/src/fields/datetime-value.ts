import { parseWallTime, toWireDatetime } from '../../../common/datetime-syntax.js';

/**
 * Conversions between the API's datetime format, `YYYY-MM-DD HH:MM:SS` (wall-clock time, no zone),
 * and what an `<input type="datetime-local" step="1">` reads and writes (`YYYY-MM-DDTHH:MM[:SS]`).
 * No time-zone arithmetic anywhere: the wall time the editor sees is the one stored.
 */

/** API value -> input value (`2025-01-06 08:30:00` -> `2025-01-06T08:30:00`); '' when empty or unreadable. */
export function toInputValue(wire: string | null | undefined): string {
  if (!wire) return '';
  const time = parseWallTime(wire);
  return time ? toWireDatetime(time).replace(' ', 'T') : '';
}

/** Input value -> API value (`2025-01-06T08:30` -> `2025-01-06 08:30:00`); '' when empty or invalid. */
export function fromInputValue(input: string): string {
  if (input === '') return '';
  const time = parseWallTime(input);
  return time ? toWireDatetime(time) : '';
}

/** The local wall-clock time of `date` in the API format. */
export function wireFromDate(date: Date): string {
  return toWireDatetime({
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
  });
}

/** A readable form of an API datetime for lists (`6 Jan 2025, 08:30`); the raw text when unreadable. */
export function formatWallTime(wire: string, locale?: string): string {
  const time = parseWallTime(wire);
  if (!time) return wire;
  const date = new Date(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * How long ago a server timestamp (UTC `YYYY-MM-DD HH:MM:SS.ffffff`) was, in words: `just now`,
 * `5 min ago`, `3 h ago`, `2 days ago`, or a date for anything older than a week.
 */
export function timeAgo(utcTimestamp: string, now: Date = new Date(), locale?: string): string {
  const time = parseWallTime(utcTimestamp);
  if (!time) return utcTimestamp;
  const then = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  const seconds = Math.round((now.getTime() - then) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return days === 1 ? 'yesterday' : `${days} days ago`;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(then));
}

/** A server timestamp (UTC) as a full local date and time, for tooltips and the details panel. */
export function formatTimestamp(utcTimestamp: string, locale?: string): string {
  const time = parseWallTime(utcTimestamp);
  if (!time) return utcTimestamp;
  const then = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(then));
}
