/** Sizes of files for people, the same in the command line and the editor. */

const UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * `512 bytes`, `3.4 kB`, `12.0 MB`: powers of 1000, as file managers show them, in `locale`'s
 * words and digits (the command line's English unless the editor passes its language).
 */
export function formatByteSize(bytes: number, locale = 'en'): string {
  if (bytes < 1000) {
    return new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  }
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    // Sizes past the largest unit stay one run of digits, as they always read.
    useGrouping: false,
  }).format(value);
}
