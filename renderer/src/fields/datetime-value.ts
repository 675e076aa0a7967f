import { parseWallTime, toWireDatetime } from '../../../common/datetime-syntax.js';
import { formatDate, formatDateTime, formatRelative } from '../i18n/formatters.js';
import { i18n } from '../i18n/i18n-instance.js';

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
  return formatDateTime(date, locale);
}

function utcMillis(utcTimestamp: string): number | null {
  const time = parseWallTime(utcTimestamp);
  return time ? Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second) : null;
}

/**
 * How long ago a server timestamp (UTC `YYYY-MM-DD HH:MM:SS.ffffff`) was, in words of the editor's
 * language: `just now`, `5 minutes ago`, `yesterday`, `3 days ago`, or a date for anything older
 * than a week.
 */
export function timeAgo(utcTimestamp: string, now: Date = new Date(), locale?: string): string {
  const then = utcMillis(utcTimestamp);
  if (then === null) return utcTimestamp;
  if (now.getTime() - then < 45_000) return i18n.t('common:time.justNow', { lng: locale });
  return formatRelative(then, now, locale) ?? formatDate(then, { dateStyle: 'medium' }, locale);
}

/** A server timestamp (UTC) as a local day (`3 May`), with its year when that is not this year. */
export function formatDay(utcTimestamp: string, now: Date = new Date(), locale?: string): string {
  const then = utcMillis(utcTimestamp);
  if (then === null) return utcTimestamp;
  const thisYear = new Date(then).getFullYear() === now.getFullYear();
  return formatDate(then, thisYear ? { day: 'numeric', month: 'long' } : { dateStyle: 'long' }, locale);
}

/** A server timestamp (UTC) as a full local date and time, for tooltips and the details panel. */
export function formatTimestamp(utcTimestamp: string, locale?: string): string {
  const then = utcMillis(utcTimestamp);
  if (then === null) return utcTimestamp;
  return formatDate(then, { dateStyle: 'medium', timeStyle: 'medium' }, locale);
}
