import { useTranslation } from 'react-i18next';
import { formatByteSize } from '../../../common/byte-size.js';
import { currentLanguage } from './i18n-instance.js';

/**
 * Dates, numbers and relative times in the editor's language, through `Intl`. Formatters are made
 * once per language and options, and reused.
 */

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(
  kind: string,
  locale: string,
  options: object,
  make: () => T,
): T {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
}

/** A number (`1,234` in English, `1.234` in German). */
export function formatNumber(
  value: number,
  options: Intl.NumberFormatOptions = {},
  locale: string = currentLanguage(),
): string {
  return cached('number', locale, options, () => new Intl.NumberFormat(locale, options)).format(value);
}

/** A date and/or time, by `Intl.DateTimeFormat` options (`dateStyle: 'medium'` unless given). */
export function formatDate(
  date: Date | number,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
  locale: string = currentLanguage(),
): string {
  return cached('date', locale, options, () => new Intl.DateTimeFormat(locale, options)).format(date);
}

/** A date with its time (`6 Jan 2025, 08:30`). */
export function formatDateTime(date: Date | number, locale: string = currentLanguage()): string {
  return formatDate(date, { dateStyle: 'medium', timeStyle: 'short' }, locale);
}

/**
 * How far `then` is from `now` in words (`5 minutes ago`, `yesterday`, `in 3 hours`), in whole
 * minutes, hours or days; null under a minute or over a week, where a date says it better.
 */
export function formatRelative(
  then: Date | number,
  now: Date | number = Date.now(),
  locale: string = currentLanguage(),
): string | null {
  const seconds = Math.round((Number(then) - Number(now)) / 1000);
  if (Math.abs(seconds) < 45) return null;
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return relative(locale, minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return relative(locale, hours, 'hour');
  const days = Math.round(hours / 24);
  if (Math.abs(days) < 7) return relative(locale, days, 'day');
  return null;
}

function relative(locale: string, amount: number, unit: Intl.RelativeTimeFormatUnit): string {
  const options = { numeric: 'auto' } as const;
  return cached('relative', locale, options, () => new Intl.RelativeTimeFormat(locale, options)).format(amount, unit);
}

/** The formatters, bound to the editor's language; a component that uses them re-renders when it changes. */
export function useFormatters() {
  const { i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? currentLanguage();
  return {
    locale,
    number: (value: number, options?: Intl.NumberFormatOptions) => formatNumber(value, options, locale),
    date: (date: Date | number, options?: Intl.DateTimeFormatOptions) => formatDate(date, options, locale),
    dateTime: (date: Date | number) => formatDateTime(date, locale),
    relative: (then: Date | number, now?: Date | number) => formatRelative(then, now, locale),
    byteSize: (bytes: number) => formatByteSize(bytes, locale),
  };
}
