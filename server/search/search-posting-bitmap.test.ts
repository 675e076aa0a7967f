import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packed } from './search-bitmap-containers.js';
import { PostingBitmap } from './search-posting-bitmap.js';

describe('finished groups packed into shared slabs', () => {
  it('copies the members into views of one buffer, and a large array into its own', () => {
    const a = packed(Uint16Array.of(3, 5, 9, 0, 0), 3);
    const b = packed(Uint16Array.of(1, 2), 2);
    expect([...a]).toEqual([3, 5, 9]);
    expect([...b]).toEqual([1, 2]);
    expect(a.buffer).toBe(b.buffer);
    const large = packed(
      new Uint16Array(5000).map((_, i) => i),
      5000,
    );
    expect(large.length).toBe(5000);
    expect(large.buffer).not.toBe(a.buffer);
  });

  it('keeps neighbouring bitmaps apart when rows are added and removed after trimming', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(5), fc.integer({ min: 0, max: 140_000 })), { maxLength: 2_000 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat(5), fc.integer({ min: 0, max: 140_000 })), { maxLength: 300 }),
        (built, later) => {
          // A build: rows in increasing order, then every group trimmed (its arrays packed side by side).
          const bitmaps = Array.from({ length: 6 }, () => new PostingBitmap());
          const expected = Array.from({ length: 6 }, () => new Set<number>());
          for (const [i, row] of [...built].sort((x, y) => x[1] - y[1])) {
            bitmaps[i].add(row);
            expected[i].add(row);
          }
          for (const bitmap of bitmaps) bitmap.trimGroups(0, 3);
          for (const [add, i, row] of later) {
            if (add) {
              bitmaps[i].add(row);
              expected[i].add(row);
            } else {
              bitmaps[i].remove(row);
              expected[i].delete(row);
            }
          }
          for (let i = 0; i < 6; i++) {
            expect(bitmaps[i].toArray()).toEqual([...expected[i]].sort((x, y) => x - y));
            expect(bitmaps[i].size).toBe(expected[i].size);
          }
        },
      ),
      { numRuns: 200, seed: 21 },
    );
  });
});
