import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { indexSecondsOf } from './sqlite-bench.mjs';

/** What the bench reads of the summary line of `quire import` and `quire copy` (bench/sqlite-bench.mjs). */
describe('indexSecondsOf', () => {
  it("reads the table's indexes and the search index apart, each only where the import said it", () => {
    const both =
      'Imported 100,000 news rows from news-100k.ndjson in 3.0 s (33,834 rows/s), indexes built after the rows in 1.3 s of that, search index saved for the next start in 1.5 s';
    expect(indexSecondsOf(both)).toEqual({ indexSeconds: 1.5, tableIndexSeconds: 1.3 });
    const searchOnly =
      'Imported 20,000 news rows from news-20k.ndjson in 0.9 s (22,222 rows/s), search index saved for the next start in 0.4 s';
    expect(indexSecondsOf(searchOnly)).toEqual({ indexSeconds: 0.4 });
    expect(indexSecondsOf('Imported 4 news rows from rows.json in 0.1 s (40 rows/s)')).toEqual({});
  });

  it("reads the search indexes' time of a copy's summary", () => {
    const copied =
      'Copied 4 content types, 100,000 rows and 0 uploads from a.sqlite to 127.0.0.1:5432/bench; counts checked, search indexes of 1 content types saved for the next start in 2.5 s';
    expect(indexSecondsOf(copied)).toEqual({ indexSeconds: 2.5 });
  });
});
