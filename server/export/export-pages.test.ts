import { describe, expect, it } from 'vitest';
import { nextPageCount, pageCountFor, ROWS_PER_PAGE } from './export-pages.js';

/**
 * How many pages a type's rows take in an export, at the default page size (the export tests page
 * with a small one, to cross the same thresholds with few rows).
 */
describe('export pages', () => {
  it('take a power of two pages of at most 256 rows on average', () => {
    expect(ROWS_PER_PAGE).toBe(256);
    expect([0, 1, 256, 257, 512, 513, 1024, 1025].map((count) => pageCountFor(count))).toEqual([
      1, 1, 1, 2, 2, 4, 4, 8,
    ]);
    expect(pageCountFor(40, 16)).toBe(4);
  });

  it('are paged again only past twice or below a quarter of the rows a page holds on average', () => {
    expect(nextPageCount(1, 512)).toBe(1);
    expect(nextPageCount(1, 513)).toBe(4);
    expect(nextPageCount(4, 2048)).toBe(4);
    expect(nextPageCount(4, 2049)).toBe(16);
    expect(nextPageCount(4, 256)).toBe(4);
    expect(nextPageCount(4, 255)).toBe(1);
    expect(nextPageCount(1, 0)).toBe(1);
    expect(nextPageCount(4, 15, 16)).toBe(1);
  });
});
