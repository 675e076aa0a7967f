import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { indexSecondsOf } from './sqlite-bench.mjs';

/** What the bench reads of `quire import`'s output (bench/sqlite-bench.mjs). */
describe('indexSecondsOf', () => {
  it("reads the table's indexes and the search index apart, each only where the import said it", () => {
    const both = [
      'Imported 100,000 news rows from news-100k.ndjson in 3.0 s (33,834 rows/s)',
      'Its indexes were built after the rows in 1.3 s',
      'Search index saved for the next start in 1.5 s',
    ].join('\n');
    expect(indexSecondsOf(both)).toEqual({ indexSeconds: 1.5, tableIndexSeconds: 1.3 });
    expect(indexSecondsOf('Imported 4 news rows from rows.json in 0.1 s (40 rows/s)')).toEqual({});
  });
});
