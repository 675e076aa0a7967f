/** Sizes of files for people, the same in the command line and the editor. */

const UNITS = ['kB', 'MB', 'GB', 'TB'] as const;

/** `512 bytes`, `3.4 kB`, `12.0 MB`: powers of 1000, as file managers show them. */
export function formatByteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}
