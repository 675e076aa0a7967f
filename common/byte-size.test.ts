import { describe, expect, it } from 'vitest';
import { formatByteSize } from './byte-size.js';

describe('formatByteSize', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [999, '999 bytes'],
    [1000, '1.0 kB'],
    [2_400_000, '2.4 MB'],
    [5e12, '5.0 TB'],
    [7e15, '7000.0 TB'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatByteSize(bytes)).toBe(text);
  });

  it.each([
    ['de', 999, '999 Byte'],
    ['de', 2_400_000, '2,4 MB'],
    ['fr', 1, '1 octet'],
    ['fr', 2_400_000, '2,4 Mo'],
    ['es', 1000, '1,0 kB'],
    ['es', 7e15, '7000,0 TB'],
  ])('in %s, %d bytes read %s', (locale, bytes, text) => {
    expect(formatByteSize(bytes, locale).replace(/\u00a0|\u202f/g, ' ')).toBe(text);
  });
});
