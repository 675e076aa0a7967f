/**
 * The API's date and time forms: datetimes are `YYYY-MM-DD HH:MM:SS` wall-clock time (no zone,
 * sortable as text), dates `YYYY-MM-DD`, server timestamps UTC `YYYY-MM-DD HH:MM:SS.ffffff`.
 * Accepted on input as well: what a browser's date-time input and ISO strings produce (`T`
 * separator, missing seconds, fractional seconds, a trailing `Z`).
 */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?Z?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date and wall-clock time, each part a number. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Reads a datetime in any accepted form; null when it is not a real date and time. */
export function parseWallTime(text: string): WallTime | null {
  const match = DATETIME.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '00'] = match;
  return realWallTime({
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  });
}

function realWallTime(time: WallTime): WallTime | null {
  const { year, month, day } = time;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (time.hour > 23 || time.minute > 59 || time.second > 59) return null;
  return time;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `YYYY-MM-DD` of a wall time. */
export function toWireDate(time: WallTime): string {
  return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
}

/** The API form of a wall time, `YYYY-MM-DD HH:MM:SS`. */
export function toWireDatetime(time: WallTime): string {
  return `${toWireDate(time)} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
}

/** A datetime in the API form, or null when it is not a real date and time. */
export function normalizeDatetime(text: string): string | null {
  const time = parseWallTime(text);
  return time ? toWireDatetime(time) : null;
}

/** A date `YYYY-MM-DD` as given when it is a real date, else null. */
export function normalizeDate(text: string): string | null {
  const match = DATE.exec(text.trim());
  if (!match) return null;
  const time = realWallTime({
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: 0,
    minute: 0,
    second: 0,
  });
  return time ? toWireDate(time) : null;
}

/** A server timestamp: UTC `YYYY-MM-DD HH:MM:SS.ffffff` (microseconds padded from milliseconds). */
export function timestampNow(moment: Date = new Date()): string {
  return `${moment.toISOString().slice(0, 19).replace('T', ' ')}.${String(moment.getUTCMilliseconds()).padStart(3, '0')}000`;
}
