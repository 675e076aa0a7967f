/**
 * The wire format of datetimes: `YYYY-MM-DD HH:MM:SS` (UTC-agnostic wall time), sortable as text.
 * Also accepts the forms a browser's date-time input and ISO strings produce (`T` separator,
 * missing seconds, fractional seconds, a trailing `Z`), normalising them to the wire format.
 */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?Z?$/;

/** Normalises a datetime string, or returns null when it is not a real date and time. */
export function normalizeDatetime(input: string): string | null {
  const match = DATETIME.exec(input.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '00'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return `${y}-${mo}-${d} ${h}:${mi}:${s}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A server timestamp: UTC `YYYY-MM-DD HH:MM:SS.ffffff` (microseconds padded from milliseconds). */
export function timestampNow(now: Date = new Date()): string {
  return `${now.toISOString().slice(0, 19).replace('T', ' ')}.${String(now.getUTCMilliseconds()).padStart(3, '0')}000`;
}
