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
});
